package dev.ctk.assertions;

import dev.ctk.fake.RequestJournal;
import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.fake.values.RequestPattern;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on the API requests a fake cluster answered, from its {@link RequestJournal} ({@code
 * FakeCluster.requests()}): how many requests match a {@link RequestPattern}, and two habits a
 * controller should not have, unconditional updates and unfiltered lists. Injected events ({@code
 * EventInjector}) are in the journal too, but no check here counts them.
 *
 * <pre>{@code
 * long afterSetup = cluster.requests().lastSequence();
 * ... // the controller reconciles
 * assertThat(cluster.requests()).since(afterSetup)
 *     .hasExactly(1, RequestPattern.patch("ConfigMap").subresource("status"))
 *     .hasNone(RequestPattern.delete("ConfigMap"))
 *     .hasNoUpdateWithoutResourceVersion();
 * assertThat(cluster.requests()).filteredOn(RequestPattern.any().client("nginx-operator"))
 *     .hasNoListWithoutSelector();
 * }</pre>
 *
 * <p>Each check reads the journal at once (there is no {@code within(..)}: wait for the effect of
 * the requests first, e.g. with {@code assertThat(controller).within(..).hasReconciledAtLeast(key, n)}).
 * Failure messages list the matching records' {@link ApiRequestRecord#summary() summaries}, at most
 * 20:
 *
 * <pre>
 * Expecting exactly 1 request matching patch ConfigMap/status
 * but found 3:
 *   #12 patch configmaps default/web/status (merge, resourceVersion=7) -&gt; 200 changed
 *   ...
 * </pre>
 *
 * <p>The journal keeps the last 10,000 records of its cluster; older ones are not counted.
 *
 * @since 0.1.0
 */
public final class RequestJournalAssert extends AbstractAssert<RequestJournalAssert, RequestJournal> {

  /** How many records a failure message lists at most. */
  static final int LISTED = 20;

  private final long after;
  private final List<RequestPattern> among;

  RequestJournalAssert(RequestJournal journal) {
    this(journal, 0, List.of());
  }

  private RequestJournalAssert(RequestJournal journal, long after, List<RequestPattern> among) {
    super(journal, RequestJournalAssert.class);
    this.after = after;
    this.among = among;
  }

  /**
   * The same assertion on the requests received after {@code sequence} only, e.g. after the test's
   * setup: {@code since(cluster.requests().lastSequence())} taken before the controller starts. This
   * assertion is not changed.
   *
   * @param sequence a journal sequence number ({@link ApiRequestRecord#sequence()}); 0 for all
   * @return a new, narrower assertion
   * @throws IllegalArgumentException if {@code sequence} is negative
   */
  public RequestJournalAssert since(long sequence) {
    if (sequence < 0) {
      throw new IllegalArgumentException("RequestJournalAssert.since(" + sequence + "): a sequence "
          + "number is 0 or more. Pass 0 for the whole journal, or a value of "
          + "RequestJournal.lastSequence() taken earlier.");
    }
    return copy(Math.max(after, sequence), among);
  }

  /**
   * The same assertion on the requests matching {@code pattern} only, e.g. one client's ({@code
   * RequestPattern.any().client("nginx-operator")}) or one namespace's. Several calls narrow further
   * (a request must match each). This assertion is not changed.
   *
   * @param pattern the requests to keep
   * @return a new, narrower assertion
   * @throws NullPointerException if {@code pattern} is null
   */
  public RequestJournalAssert filteredOn(RequestPattern pattern) {
    requirePattern(pattern, "filteredOn");
    List<RequestPattern> narrower = new ArrayList<>(among);
    narrower.add(pattern);
    return copy(after, List.copyOf(narrower));
  }

  /**
   * Checks that exactly {@code count} requests match {@code pattern}, e.g. "exactly one status
   * patch": {@code hasExactly(1, RequestPattern.patch("ConfigMap").subresource("status"))}.
   *
   * @param count the expected number, 0 or more
   * @param pattern which requests to count
   * @return this assertion
   */
  public RequestJournalAssert hasExactly(int count, RequestPattern pattern) {
    return checkCount("exactly", count, pattern, n -> n == count);
  }

  /**
   * Checks that at least {@code count} requests match {@code pattern}.
   *
   * @param count the least expected number, 0 or more
   * @param pattern which requests to count
   * @return this assertion
   */
  public RequestJournalAssert hasAtLeast(int count, RequestPattern pattern) {
    return checkCount("at least", count, pattern, n -> n >= count);
  }

  /**
   * Checks that at most {@code count} requests match {@code pattern}.
   *
   * @param count the largest allowed number, 0 or more
   * @param pattern which requests to count
   * @return this assertion
   */
  public RequestJournalAssert hasAtMost(int count, RequestPattern pattern) {
    return checkCount("at most", count, pattern, n -> n <= count);
  }

  /**
   * Checks that no request matches {@code pattern}.
   *
   * @param pattern the requests that must not have been made
   * @return this assertion
   */
  public RequestJournalAssert hasNone(RequestPattern pattern) {
    requirePattern(pattern, "hasNone");
    isNotNull();
    List<ApiRequestRecord> found = matching(pattern);
    if (!found.isEmpty()) {
      throw failed(expecting("no request matching " + pattern) + "but found "
          + found.size() + ":\n" + listed(found));
    }
    return myself;
  }

  /**
   * Checks that no update (a PUT, of the object or of a subresource such as {@code status}) was
   * sent without {@code metadata.resourceVersion} in its body: such a write overwrites whatever
   * changed since the object was read, where an update with the resourceVersion it read gets a 409
   * Conflict. Every such request counts, whatever the server answered. Patches do not count (a
   * patch names only the fields it sets).
   *
   * @return this assertion
   */
  public RequestJournalAssert hasNoUpdateWithoutResourceVersion() {
    isNotNull();
    List<ApiRequestRecord> found = matching(
        r -> "update".equals(r.verb()) && r.bodyResourceVersion() == null);
    if (!found.isEmpty()) {
      throw failed(expecting("no update without a resourceVersion (a PUT whose body has no "
          + "metadata.resourceVersion overwrites changes made since the object was read)")
          + "but found " + found.size() + ":\n" + listed(found)
          + "Fix: update the object as it was read (with its resourceVersion), so that the server "
          + "answers a stale write with 409 Conflict, or send a patch of the fields you own.");
    }
    return myself;
  }

  /**
   * Checks that every list and watch request carried a {@code labelSelector} or a {@code
   * fieldSelector}: a request with neither reads every object of its kind in its namespace (or in
   * the whole cluster). Counts list and watch requests of every resource kind, namespaced or
   * cluster-scoped, whatever the server answered; narrow with {@link #hasNoListWithoutSelector(String)},
   * {@link #since(long)} or {@link #filteredOn(RequestPattern)}. An informer that watches a whole
   * kind, as most controllers' do, fails this check: use it where a controller is meant to select.
   *
   * @return this assertion
   */
  public RequestJournalAssert hasNoListWithoutSelector() {
    return checkNoListWithoutSelector(null);
  }

  /**
   * Checks that every list and watch request of one kind carried a {@code labelSelector} or a {@code
   * fieldSelector}; see {@link #hasNoListWithoutSelector()}.
   *
   * @param kind a kind ({@code Pod}) or plural resource ({@code pods}), any case
   * @return this assertion
   * @throws NullPointerException if {@code kind} is null
   */
  public RequestJournalAssert hasNoListWithoutSelector(String kind) {
    Objects.requireNonNull(kind, "RequestJournalAssert.hasNoListWithoutSelector: the kind is null. "
        + "Pass a kind such as \"Pod\", or call hasNoListWithoutSelector() for every kind.");
    return checkNoListWithoutSelector(kind);
  }

  private RequestJournalAssert checkNoListWithoutSelector(String kind) {
    isNotNull();
    RequestPattern lists = kind == null ? RequestPattern.verbs("list", "watch")
        : RequestPattern.verbs("list", "watch").kind(kind);
    List<ApiRequestRecord> found = matching(r -> r.kind() != null && lists.matches(r)
        && isBlank(r.labelSelector()) && isBlank(r.fieldSelector()));
    if (!found.isEmpty()) {
      throw failed(expecting("no list or watch" + (kind == null ? "" : " of " + kind)
          + " without a selector (neither labelSelector nor fieldSelector)")
          + "but found " + found.size() + ":\n" + listed(found)
          + "Fix: give the informer or the list a label or field selector"
          + (kind == null ? ", or narrow the check with hasNoListWithoutSelector(kind), since(..) "
              + "or filteredOn(..)." : "."));
    }
    return myself;
  }

  /** An absent or empty selector ({@code labelSelector=} selects everything). */
  private static boolean isBlank(String selector) {
    return selector == null || selector.isBlank();
  }

  private RequestJournalAssert checkCount(String how, int count, RequestPattern pattern,
      Predicate<Integer> holds) {
    requirePattern(pattern, "has" + (how.equals("exactly") ? "Exactly"
        : how.equals("at least") ? "AtLeast" : "AtMost"));
    if (count < 0) {
      throw new IllegalArgumentException("RequestJournalAssert: the expected count is " + count
          + "; pass 0 or more.");
    }
    isNotNull();
    List<ApiRequestRecord> found = matching(pattern);
    if (!holds.test(found.size())) {
      String expected = how + " " + count + (count == 1 ? " request" : " requests") + " matching "
          + pattern;
      if (found.isEmpty()) {
        throw failed(expecting(expected) + "but found none among " + inScope().size()
            + (inScope().size() == 1 ? " request." : " requests."));
      }
      throw failed(expecting(expected) + "but found " + found.size() + ":\n" + listed(found));
    }
    return myself;
  }

  /** The API requests this assertion looks at: after {@link #since}, matching {@link #filteredOn}. */
  private List<ApiRequestRecord> inScope() {
    return actual.entries().stream()
        .filter(r -> !r.injected() && r.sequence() > after)
        .filter(r -> among.stream().allMatch(p -> p.matches(r)))
        .collect(Collectors.toList());
  }

  private List<ApiRequestRecord> matching(Predicate<ApiRequestRecord> condition) {
    return inScope().stream().filter(condition).collect(Collectors.toList());
  }

  private String expecting(String expectation) {
    StringBuilder text = new StringBuilder("\nExpecting ").append(expectation).append('\n');
    if (after > 0 || !among.isEmpty()) {
      text.append("  among the requests");
      if (after > 0) {
        text.append(" after #").append(after);
      }
      if (!among.isEmpty()) {
        text.append(" matching ").append(among.stream().map(String::valueOf)
            .collect(Collectors.joining(" and ")));
      }
      text.append('\n');
    }
    return text.toString();
  }

  /** The records' summaries, one per line, at most {@link #LISTED}, then how many more. */
  private static String listed(List<ApiRequestRecord> records) {
    StringBuilder text = new StringBuilder();
    records.stream().limit(LISTED).forEach(r -> text.append("  ").append(r.summary()).append('\n'));
    if (records.size() > LISTED) {
      text.append("  ... and ").append(records.size() - LISTED).append(" more\n");
    }
    return text.toString();
  }

  private AssertionError failed(String message) {
    return failure("%s", message.stripTrailing());
  }

  private RequestJournalAssert copy(long after, List<RequestPattern> among) {
    RequestJournalAssert narrower = new RequestJournalAssert(actual, after, among);
    narrower.info.description(info.description());
    narrower.info.useRepresentation(info.representation());
    return narrower;
  }

  private static void requirePattern(RequestPattern pattern, String method) {
    if (pattern == null) {
      throw new NullPointerException("RequestJournalAssert." + method + ": the pattern is null. "
          + "Pass a RequestPattern, e.g. RequestPattern.patch(\"ConfigMap\").subresource(\"status\").");
    }
  }
}
