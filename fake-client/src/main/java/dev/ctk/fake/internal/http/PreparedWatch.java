package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.common.QueryBoolean;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.select.FieldSelector;
import dev.ctk.fake.internal.select.LabelSelector;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.store.WatchStart;
import dev.ctk.fake.internal.version.KubeMinor;
import dev.ctk.fake.internal.watch.WatchFilter;

/**
 * A watch request, validated before any response is sent (so a bad selector or an unknown resource still answers
 * with an ordinary 400/404 Status).
 *
 * @param type the resource as served on this request
 * @param filter what the watch selects
 * @param start where it starts
 * @param timeoutSeconds when to end the watch ({@code timeoutSeconds} parameter, at most
 *     {@link #MAX_TIMEOUT_SECONDS}), or {@code null}
 * @param allowBookmarks whether the client asked for periodic BOOKMARK events ({@code allowWatchBookmarks=true})
 */
record PreparedWatch(ResourceType type, WatchFilter filter, WatchStart start, Long timeoutSeconds,
    boolean allowBookmarks) {

  /**
   * The longest {@code timeoutSeconds} honoured (one year): longer values mean "never" in practice and are capped,
   * so the timer's milliseconds never overflow. Zero or negative values mean no timeout.
   */
  static final long MAX_TIMEOUT_SECONDS = 365L * 24 * 60 * 60;

  /**
   * Whether a request is a watch: a {@code watch} parameter kube reads as true ({@code QueryBoolean}) or the legacy
   * {@code /watch/} path prefix.
   */
  static boolean isWatch(ApiRequest request) {
    if (!request.method().equals("GET")) {
      return false;
    }
    return request.watchParam() || request.resourcePath().map(ResourcePath::legacyWatch).orElse(false);
  }

  /**
   * Validates a watch request.
   *
   * @throws ApiError 404 for an unknown resource, 400 for bad selectors or parameters
   */
  static PreparedWatch prepare(ApiRequest request, dev.ctk.fake.internal.registry.ResourceRegistry registry,
      KubeMinor minor) {
    ResourcePath path = request.resourcePath().orElseThrow(() -> UnservedPaths.forPath(request.path()));
    if (path.subresource() != null) {
      throw ApiError.unknownResource();
    }
    ResourceType type = registry.byPath(path.group(), path.version(), path.resource())
        .orElseThrow(() -> UnservedPaths.inGroup(path.group()));
    if (!type.namespaced() && path.namespace() != null) {
      throw ApiError.unknownResource();
    }
    LabelSelector labels = Selectors.labels(request);
    FieldSelector fields = Selectors.fields(request, type, path.name());
    String namespace = type.namespaced() ? path.namespace() : null;
    WatchFilter filter = new WatchFilter(type.storageKey(), namespace, labels, fields);
    String sendInitialEvents = request.param("sendInitialEvents");
    String rv = request.param("resourceVersion");
    String match = request.param("resourceVersionMatch");
    boolean initialEvents;
    if (!request.watchParam()) {
      // the legacy /watch/ path: kube forces a watch but its ListOptions say watch=false, so they are neither
      // defaulted to a watch-list nor checked as a watch's (a list's rules apply)
      MetaOptions.list(request);
      initialEvents = false;
    } else {
      // kube's SetListOptionsDefaults with the WatchList feature on (1.32, 1.34 and later), before the checks: a
      // watch from no resourceVersion or "0" that names neither sendInitialEvents nor a match is a watch-list
      boolean watchList = minor.watchListByDefault() && sendInitialEvents == null
          && (match == null || match.isEmpty()) && (rv == null || rv.isEmpty() || rv.equals("0"));
      MetaOptions.watch(request, minor, watchList || sendInitialEvents != null, watchList ? "NotOlderThan" : match);
      initialEvents = watchList || QueryBoolean.parse(sendInitialEvents);
    }
    Long from = null;
    if (!initialEvents && rv != null && !rv.isEmpty() && !rv.equals("0")) {
      try {
        from = Long.parseUnsignedLong(rv);
      } catch (NumberFormatException e) {
        throw ApiError.badRequest("invalid resource version: strconv.ParseUint: parsing \"" + rv
            + "\": invalid syntax");
      }
    }
    Long timeout = null;
    String timeoutParam = request.param("timeoutSeconds");
    if (timeoutParam != null && !timeoutParam.isEmpty()) {
      try {
        timeout = Math.min(Long.parseLong(timeoutParam), MAX_TIMEOUT_SECONDS);
      } catch (NumberFormatException e) {
        throw ApiError.badRequest("invalid timeoutSeconds: \"" + timeoutParam + "\" is not an integer");
      }
    }
    boolean bookmarks = QueryBoolean.parse(request.param("allowWatchBookmarks"));
    // sendInitialEvents=false without a resourceVersion (or "0"): kube starts at its current one, no initial state
    boolean fromNow = sendInitialEvents != null && !initialEvents && from == null;
    // the initial-events-end BOOKMARK goes only to a watch that allows bookmarks (kube's
    // setInitialEventsEndBookmarkIfRequested)
    return new PreparedWatch(type, filter, new WatchStart(from, initialEvents && bookmarks, fromNow), timeout,
        bookmarks);
  }
}
