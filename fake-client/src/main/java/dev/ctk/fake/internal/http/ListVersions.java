package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.store.ListResult;
import dev.ctk.fake.internal.store.ObjectStore;
import java.util.function.Supplier;

/**
 * Which state a LIST reads, by its {@code resourceVersion}, {@code resourceVersionMatch} and {@code limit}, as kube
 * 1.32 decides it:
 * <ul>
 *   <li>no resourceVersion, or {@code 0}: the present;</li>
 *   <li>{@code resourceVersionMatch=Exact}, or a {@code limit} with a resourceVersion and no match (kube reads etcd
 *       at that revision): the snapshot at that resourceVersion, rolled back from the watch history
 *       ({@link ObjectStore#readAt}), its list resourceVersion the one asked for; older than the history
 *       {@code 410 Expired: The resourceVersion for the provided list is too old.}; newer than the store etcd's
 *       {@code 500 etcdserver: mvcc: required revision is a future revision} (kube 1.34 answers from its watch cache:
 *       504);</li>
 *   <li>otherwise (not older than): the present; a resourceVersion the store has not reached answers the watch
 *       cache's {@code 504 Timeout: Too large resource version} at once (kube waits up to 3 seconds first).</li>
 * </ul>
 * A resourceVersion that is not a number answers kube's 400 on the etcd path and its 500 on the cache path.
 * Continue tokens carry their snapshot's resourceVersion themselves ({@code ListPager}).
 */
final class ListVersions {

  private ListVersions() {}

  /**
   * Runs {@code list} against the state the request asks for.
   *
   * @param at the request's validated {@code ListOptions}
   * @param limit the page size ({@code 0} for none)
   * @param list the store call
   */
  static ListResult read(ObjectStore store, MetaOptions.ListAt at, long limit, Supplier<ListResult> list) {
    String text = at.resourceVersion();
    if (text == null || text.isEmpty() || text.equals("0")) {
      return list.get();
    }
    boolean exact = at.exact(limit);
    long resourceVersion;
    try {
      resourceVersion = Long.parseUnsignedLong(text);
    } catch (NumberFormatException e) {
      String why = "resourceVersion: Invalid value: \"" + text + "\": strconv.ParseUint: parsing \"" + text
          + "\": invalid syntax";
      throw exact ? ApiError.badRequest("invalid resource version: " + why) : ApiError.untranslated(500, why);
    }
    return store.inTransaction(() -> {
      long now = store.resourceVersion();
      if (!exact) {
        if (resourceVersion > now) {
          throw ApiError.tooLargeResourceVersion(resourceVersion, now);
        }
        return list.get();
      }
      if (resourceVersion > now) {
        throw ApiError.untranslated(500, "etcdserver: mvcc: required revision is a future revision");
      }
      if (resourceVersion < store.watchHub().historyStart()) {
        throw ApiError.expired("The resourceVersion for the provided list is too old.");
      }
      return store.readAt(resourceVersion, list);
    });
  }
}
