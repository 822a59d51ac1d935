package dev.ctk.assertions.internal;

import dev.ctk.fake.values.ApiRequestRecord;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which records of a request journal raised an object's {@code metadata.generation}, read from the
 * generation each record says the object was left with ({@link ApiRequestRecord#generation()}). A
 * record raised it when its generation is higher than the last one the journal recorded for the
 * same object (whoever wrote, subresource writes included: a {@code scale} write bumps its parent),
 * or, for the first record of an object that is not a create, higher than 1 (objects start at 1,
 * so the first spec write to an object created before the journal started counts).
 *
 * <p>It does not see writes the journal dropped (it is bounded) or objects of kinds that keep no
 * generation; a create is never a bump.
 *
 * <p>Internal: not part of ctk's API; it may change in any release.
 */
public final class GenerationBumps {

  private final Set<Long> raised;

  private GenerationBumps(Set<Long> raised) {
    this.raised = raised;
  }

  /**
   * Reads the generations of a journal.
   *
   * @param journal the journal's records, in sequence order
   * @return which of them raised a generation
   */
  public static GenerationBumps of(List<ApiRequestRecord> journal) {
    Map<String, Long> last = new HashMap<>();
    Set<Long> raised = new HashSet<>();
    for (ApiRequestRecord record : journal) {
      Long generation = record.generation();
      if (generation == null || record.objectKey() == null) {
        continue;
      }
      Long before = last.put(object(record), generation);
      boolean bump = before == null ? !"create".equals(record.verb()) && generation > 1
          : generation > before;
      if (bump) {
        raised.add(record.sequence());
      }
    }
    return new GenerationBumps(Set.copyOf(raised));
  }

  /**
   * Whether the record raised its object's generation.
   *
   * @param record a record of the journal this was read from
   * @return {@code true} for bumps
   */
  public boolean raised(ApiRequestRecord record) {
    return raised.contains(record.sequence());
  }

  /**
   * The object whose generation a record concerns, as churn messages name it: {@code deployments
   * default/web}, also for a write to its {@code status} or {@code scale} subresource.
   *
   * @param record a record
   * @return the object's name
   */
  public static String object(ApiRequestRecord record) {
    String key = record.objectKey();
    return (record.resource() == null ? "?" : record.resource()) + " "
        + (key == null ? "(no name)" : key);
  }
}
