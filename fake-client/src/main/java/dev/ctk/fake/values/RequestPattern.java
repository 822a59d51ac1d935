package dev.ctk.fake.values;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which API requests something applies to: a fault rule ({@link dev.ctk.fake.ApiFaults}) or an assertion on the
 * {@link dev.ctk.fake.RequestJournal}. Immutable; each {@code withX}-style method returns a narrower pattern. Every part left
 * out matches anything.
 *
 * <pre>{@code
 * RequestPattern statusPatches = RequestPattern.patch("ConfigMap").subresource("status");
 * RequestPattern webUpdates = RequestPattern.update("Deployment").named("default", "web");
 * RequestPattern anyWrite = RequestPattern.writes().fieldManager("nginx-service");
 * }</pre>
 *
 * <p>Kinds match a record's kind or plural resource, ignoring case ({@code "ConfigMap"} or
 * {@code "configmaps"}). Injected events ({@link ApiRequestRecord#injected()}) match no pattern.
 *
 * @since 0.1.0
 */
public final class RequestPattern implements Predicate<ApiRequestRecord> {

  private static final Set<String> VERBS = Set.of("get", "list", "watch", "create", "update", "patch", "delete",
      "deletecollection");
  private static final Set<String> WRITES = Set.of("create", "update", "patch", "delete", "deletecollection");

  private final Set<String> verbs;
  private final String kind;
  private final String namespace;
  private final String name;
  private final String subresource;
  private final boolean noSubresource;
  private final String fieldManager;
  private final String patchType;
  private final String client;
  private final List<Predicate<ApiRequestRecord>> extra;
  private final List<String> extraText;

  private RequestPattern(Set<String> verbs, String kind, String namespace, String name, String subresource,
      boolean noSubresource, String fieldManager, String patchType, String client,
      List<Predicate<ApiRequestRecord>> extra, List<String> extraText) {
    this.verbs = verbs;
    this.kind = kind;
    this.namespace = namespace;
    this.name = name;
    this.subresource = subresource;
    this.noSubresource = noSubresource;
    this.fieldManager = fieldManager;
    this.patchType = patchType;
    this.client = client;
    this.extra = extra;
    this.extraText = extraText;
  }

  /**
   * Every API request.
   *
   * @return a pattern matching any request
   */
  public static RequestPattern any() {
    return new RequestPattern(Set.of(), null, null, null, null, false, null, null, null, List.of(), List.of());
  }

  /**
   * Requests with one of these verbs on any kind.
   *
   * @param verbs {@code get}, {@code list}, {@code watch}, {@code create}, {@code update}, {@code patch},
   *     {@code delete}, {@code deletecollection} (any case)
   * @return the pattern
   * @throws IllegalArgumentException for an unknown verb
   */
  public static RequestPattern verbs(String... verbs) {
    Objects.requireNonNull(verbs, "RequestPattern.verbs: verbs is null");
    Set<String> normal = new java.util.TreeSet<>();
    for (String verb : verbs) {
      String v = Objects.requireNonNull(verb, "RequestPattern.verbs: a verb is null").toLowerCase(Locale.ROOT);
      if (!VERBS.contains(v)) {
        throw new IllegalArgumentException("RequestPattern.verbs: unknown verb \"" + verb + "\". Use one of "
            + new java.util.TreeSet<>(VERBS) + ".");
      }
      normal.add(v);
    }
    return any().copy(Set.copyOf(normal), null, null, null, null, false, null, null, null);
  }

  /**
   * Every write: create, update, patch, delete, deletecollection.
   *
   * @return the pattern
   */
  public static RequestPattern writes() {
    return any().copy(WRITES, null, null, null, null, false, null, null, null);
  }

  /** @param kind a kind or plural resource @return {@code get} requests of that kind */
  public static RequestPattern get(String kind) {
    return verbs("get").kind(kind);
  }

  /** @param kind a kind or plural resource @return {@code list} requests of that kind */
  public static RequestPattern list(String kind) {
    return verbs("list").kind(kind);
  }

  /** @param kind a kind or plural resource @return {@code watch} requests of that kind */
  public static RequestPattern watch(String kind) {
    return verbs("watch").kind(kind);
  }

  /** @param kind a kind or plural resource @return {@code create} requests of that kind */
  public static RequestPattern create(String kind) {
    return verbs("create").kind(kind);
  }

  /** @param kind a kind or plural resource @return {@code update} requests of that kind */
  public static RequestPattern update(String kind) {
    return verbs("update").kind(kind);
  }

  /** @param kind a kind or plural resource @return {@code patch} requests of that kind */
  public static RequestPattern patch(String kind) {
    return verbs("patch").kind(kind);
  }

  /** @param kind a kind or plural resource @return {@code delete} requests of that kind */
  public static RequestPattern delete(String kind) {
    return verbs("delete").kind(kind);
  }

  /**
   * Narrows to a kind.
   *
   * @param kind a kind ({@code ConfigMap}) or plural resource ({@code configmaps}), any case
   * @return the narrower pattern
   */
  public RequestPattern kind(String kind) {
    return copy(verbs, required(kind, "kind"), namespace, name, subresource, noSubresource, fieldManager, patchType,
        client);
  }

  /**
   * Narrows to a namespace.
   *
   * @param namespace the namespace
   * @return the narrower pattern
   */
  public RequestPattern inNamespace(String namespace) {
    return copy(verbs, kind, required(namespace, "namespace"), name, subresource, noSubresource, fieldManager,
        patchType, client);
  }

  /**
   * Narrows to one object.
   *
   * @param namespace its namespace, or {@code null} for any namespace (and cluster-scoped objects)
   * @param name its name
   * @return the narrower pattern
   */
  public RequestPattern named(String namespace, String name) {
    return copy(verbs, kind, namespace, required(name, "name"), subresource, noSubresource, fieldManager,
        patchType, client);
  }

  /**
   * Narrows to a subresource.
   *
   * @param subresource e.g. {@code status} or {@code scale}
   * @return the narrower pattern
   */
  public RequestPattern subresource(String subresource) {
    return copy(verbs, kind, namespace, name, required(subresource, "subresource"), false, fieldManager, patchType,
        client);
  }

  /**
   * Narrows to requests on the object itself, not a subresource.
   *
   * @return the narrower pattern
   */
  public RequestPattern withoutSubresource() {
    return copy(verbs, kind, namespace, name, null, true, fieldManager, patchType, client);
  }

  /**
   * Narrows to a field manager ({@code fieldManager} query parameter, exact).
   *
   * @param fieldManager the field manager
   * @return the narrower pattern
   */
  public RequestPattern fieldManager(String fieldManager) {
    return copy(verbs, kind, namespace, name, subresource, noSubresource, required(fieldManager, "fieldManager"),
        patchType, client);
  }

  /**
   * Narrows to a patch type.
   *
   * @param patchType {@code json}, {@code merge}, {@code strategic-merge} or {@code apply}
   * @return the narrower pattern
   */
  public RequestPattern patchType(String patchType) {
    String type = required(patchType, "patchType").toLowerCase(Locale.ROOT);
    if (!Set.of("json", "merge", "strategic-merge", "apply").contains(type)) {
      throw new IllegalArgumentException("RequestPattern.patchType: unknown patch type \"" + patchType
          + "\". Use json, merge, strategic-merge or apply.");
    }
    return copy(verbs, kind, namespace, name, subresource, noSubresource, fieldManager, type, client);
  }

  /**
   * Narrows to one client: requests whose {@code User-Agent} contains {@code text}.
   *
   * @param text part of the user agent
   * @return the narrower pattern
   */
  public RequestPattern client(String text) {
    return copy(verbs, kind, namespace, name, subresource, noSubresource, fieldManager, patchType,
        required(text, "client"));
  }

  /**
   * Narrows with any condition on the record.
   *
   * <p>In a fault rule ({@link dev.ctk.fake.ApiFaults}) the condition runs exactly once per request whose other parts match,
   * when the request arrives, before the request is served. With the in-process transport
   * ({@link dev.ctk.fake.ClientTransport#IN_PROCESS}) it runs on the thread that sent the request (for a fabric8 client call, the
   * calling thread), so it may read that thread's {@code ThreadLocal}s, e.g. to tell a controller's reconcile
   * threads from the test's; requests fabric8 sends from its own scheduler thread (its retries after an error or a
   * dropped connection) run it on the cluster's delivery thread instead. Over HTTP it runs on the fake server's
   * event-loop thread, which every HTTP fake of the JVM shares. Either way it must be fast, must not block (no latches, sleeps or I/O) and must not call the
   * API (a client call to the same cluster from there waits on the thread it blocks). Read only the record it is
   * given and, in process, the sending thread's state; keep any state it needs thread-safe.
   *
   * <pre>{@code
   * ThreadLocal<Boolean> inReconcile = ...;   // set by the controller's worker threads
   * faults.when(RequestPattern.writes().where("from a reconcile", r -> Boolean.TRUE.equals(inReconcile.get())))
   *     .once().answer(ApiFault.dropConnection());
   * }</pre>
   *
   * @param description how the condition reads in messages, e.g. {@code "without a resourceVersion"}
   * @param condition the condition
   * @return the narrower pattern
   */
  public RequestPattern where(String description, Predicate<ApiRequestRecord> condition) {
    List<Predicate<ApiRequestRecord>> predicates = new ArrayList<>(extra);
    predicates.add(Objects.requireNonNull(condition, "RequestPattern.where: condition is null"));
    List<String> texts = new ArrayList<>(extraText);
    texts.add(required(description, "description"));
    return new RequestPattern(verbs, kind, namespace, name, subresource, noSubresource, fieldManager, patchType,
        client, List.copyOf(predicates), List.copyOf(texts));
  }

  /**
   * Whether a record matches (injected events never do).
   *
   * @param record a journal record
   * @return {@code true} if every part of this pattern matches
   */
  @Override
  public boolean test(ApiRequestRecord record) {
    return matches(record);
  }

  /**
   * Whether a record matches (injected events never do).
   *
   * @param record a journal record
   * @return {@code true} if every part of this pattern matches
   */
  public boolean matches(ApiRequestRecord record) {
    if (record == null || record.injected()) {
      return false;
    }
    if (!verbs.isEmpty() && !verbs.contains(record.verb())) {
      return false;
    }
    if (kind != null && !kind.equalsIgnoreCase(record.kind()) && !kind.equalsIgnoreCase(record.resource())) {
      return false;
    }
    if (namespace != null && !namespace.equals(record.namespace())) {
      return false;
    }
    if (name != null && !name.equals(record.name())) {
      return false;
    }
    if (subresource != null && !subresource.equals(record.subresource())) {
      return false;
    }
    if (noSubresource && record.subresource() != null) {
      return false;
    }
    if (fieldManager != null && !fieldManager.equals(record.fieldManager())) {
      return false;
    }
    if (patchType != null && !patchType.equals(record.patchType())) {
      return false;
    }
    if (client != null && (record.client() == null || !record.client().contains(client))) {
      return false;
    }
    return extra.stream().allMatch(p -> p.test(record));
  }

  /**
   * How the pattern reads in messages, e.g. {@code "patch ConfigMap default/web/status fieldManager=nginx"}.
   *
   * @return the description
   */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder(verbs.isEmpty() ? "any request" : verbs.equals(WRITES) ? "any write"
        : String.join("|", new java.util.TreeSet<>(verbs)));
    out.append(kind == null ? " of any kind" : " " + kind);
    if (name != null) {
      out.append(' ').append(namespace == null ? name : namespace + "/" + name);
    } else if (namespace != null) {
      out.append(" in ").append(namespace);
    }
    if (subresource != null) {
      out.append('/').append(subresource);
    }
    if (noSubresource) {
      out.append(" (not a subresource)");
    }
    if (patchType != null) {
      out.append(" patchType=").append(patchType);
    }
    if (fieldManager != null) {
      out.append(" fieldManager=").append(fieldManager);
    }
    if (client != null) {
      out.append(" client~").append(client);
    }
    extraText.forEach(t -> out.append(' ').append(t));
    return out.toString();
  }

  private RequestPattern copy(Set<String> verbs, String kind, String namespace, String name, String subresource,
      boolean noSubresource, String fieldManager, String patchType, String client) {
    return new RequestPattern(verbs, kind, namespace, name, subresource, noSubresource, fieldManager, patchType,
        client, extra, extraText);
  }

  private static String required(String value, String what) {
    Objects.requireNonNull(value, () -> "RequestPattern: " + what + " is null");
    if (value.isBlank()) {
      throw new IllegalArgumentException("RequestPattern: " + what + " must not be blank");
    }
    return value;
  }
}
