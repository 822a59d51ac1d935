package dev.ctk.fake.values;

import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/**
 * One entry of a fake cluster's {@link dev.ctk.fake.RequestJournal}: an API request the server answered (or an event a test
 * injected through {@link dev.ctk.fake.EventInjector}), with what the server made of it.
 *
 * <pre>{@code
 * ApiRequestRecord r = cluster.requests().entries().get(0);
 * r.summary();   // "#12 patch configmaps default/web/status (apply, fieldManager=nginx) -> 200 changed"
 * ApiRequestRecord bump = cluster.requests().entries(RequestPattern.update("Deployment")).get(0);
 * bump.summary();   // "#14 update deployments default/web (resourceVersion=9) -> 200 changed, generation 2"
 * bump.generation(); // 2
 * }</pre>
 *
 * <p>A value: equal when every field is equal. Built by ctk's journal; {@link #builder()} makes one for a test of
 * a {@link RequestPattern} predicate.
 *
 * @since 0.1.0
 */
public final class ApiRequestRecord {

  /** The {@link #client()} of events injected through {@link dev.ctk.fake.EventInjector}. */
  public static final String INJECTOR = "EventInjector";

  private static final Set<String> WRITE_VERBS = Set.of("create", "update", "patch", "delete", "deletecollection");

  private final long sequence;
  private final Instant time;
  private final String verb;
  private final String kind;
  private final String resource;
  private final String namespace;
  private final String name;
  private final String subresource;
  private final String patchType;
  private final String fieldManager;
  private final String labelSelector;
  private final String fieldSelector;
  private final String bodyResourceVersion;
  private final String client;
  private final int code;
  private final boolean changed;
  private final String fault;
  private final Long generation;

  private ApiRequestRecord(Builder b) {
    this.sequence = b.sequence;
    this.time = b.time;
    this.verb = b.verb;
    this.kind = b.kind;
    this.resource = b.resource;
    this.namespace = b.namespace;
    this.name = b.name;
    this.subresource = b.subresource;
    this.patchType = b.patchType;
    this.fieldManager = b.fieldManager;
    this.labelSelector = b.labelSelector;
    this.fieldSelector = b.fieldSelector;
    this.bodyResourceVersion = b.bodyResourceVersion;
    this.client = b.client;
    this.code = b.code;
    this.changed = b.changed;
    this.fault = b.fault;
    this.generation = b.generation;
  }

  /**
   * Position in the journal, from 1, in the order the server received the requests.
   *
   * @return the value
   */
  public long sequence() {
    return sequence;
  }

  /**
   * When the server received it (real wall-clock time, whatever clock the cluster stamps objects with).
   *
   * @return the value
   */
  public Instant time() {
    return time;
  }

  /**
   * The Kubernetes verb: {@code get}, {@code list}, {@code watch}, {@code create}, {@code update}, {@code patch},
   * {@code delete}, {@code deletecollection}; for discovery and other non-resource paths {@code get}; for injected
   * events the {@link dev.ctk.fake.EventInjector} method ({@code add}, {@code update}, {@code delete}, {@code emitAdded}, {@code
   * emitModified}, {@code emitDeleted}).
   *
   * @return the value
   */
  public String verb() {
    return verb;
  }

  /**
   * The kind (e.g. {@code ConfigMap}), or {@code null} for non-resource paths.
   *
   * @return the value
   */
  public String kind() {
    return kind;
  }

  /**
   * The plural resource (e.g. {@code configmaps}), or the path for non-resource requests.
   *
   * @return the value
   */
  public String resource() {
    return resource;
  }

  /**
   * The namespace, or {@code null}
   *
   * @return the value
   */
  public String namespace() {
    return namespace;
  }

  /**
   * The object name, or {@code null} (lists, collection writes, create without a name in the path).
   *
   * @return the value
   */
  public String name() {
    return name;
  }

  /**
   * {@code status}, {@code scale}, ..., or {@code null}
   *
   * @return the value
   */
  public String subresource() {
    return subresource;
  }

  /**
   * For patches {@code json}, {@code merge}, {@code strategic-merge} or {@code apply}; else {@code null}
   *
   * @return the value
   */
  public String patchType() {
    return patchType;
  }

  /**
   * The {@code fieldManager} query parameter, or {@code null}
   *
   * @return the value
   */
  public String fieldManager() {
    return fieldManager;
  }

  /**
   * The {@code labelSelector} query parameter of a list, watch or deletecollection, or {@code null}
   *
   * @return the value
   */
  public String labelSelector() {
    return labelSelector;
  }

  /**
   * The {@code fieldSelector} query parameter of a list, watch or deletecollection, or {@code null}
   *
   * @return the value
   */
  public String fieldSelector() {
    return fieldSelector;
  }

  /**
   * {@code metadata.resourceVersion} of the request body for update and patch (for a JSON patch, the value of a
   * {@code test} or {@code replace} operation on {@code /metadata/resourceVersion}), or {@code null} when the body
   * has none (an unconditional write), cannot be decoded, or the verb has no body.
   *
   * @return the value
   */
  public String bodyResourceVersion() {
    return bodyResourceVersion;
  }

  /**
   * Who sent it: the {@code User-Agent} header, or {@value #INJECTOR} for injected events.
   *
   * @return the value
   */
  public String client() {
    return client;
  }

  /**
   * The HTTP status code of the answer (101 for a websocket watch, 200 for an HTTP-streaming watch once open, 0 for
   * a dropped connection); for injected events 201 (add) or 200, or the code of the error that failed it.
   *
   * @return the value
   */
  public int code() {
    return code;
  }

  /**
   * Whether the request committed a change to the store (a no-op update or apply is {@code false}).
   *
   * @return the value
   */
  public boolean changed() {
    return changed;
  }

  /**
   * The description of the fault a rule injected instead of (or before) the normal answer, or {@code null}
   *
   * @return the value
   */
  public String fault() {
    return fault;
  }

  /**
   * {@code metadata.generation} of the object as the server stored it once a create, update or patch succeeded (also
   * of the parent object after a write to its {@code status} or {@code scale} subresource, and of an object a delete
   * left in place, e.g. waiting for finalizers), so that a run of writes shows whether they bumped it; for injected
   * events, of the object as stored after the call. {@code null} for reads, watches, failed or refused requests,
   * deletes that removed the object, collection deletes, dry runs that created nothing, and kinds that keep no
   * generation (ConfigMap, Secret, Pod, Service, ...).
   *
   * @return the value
   */
  public Long generation() {
    return generation;
  }

  /**
   * A builder with this record's fields, to make a changed copy.
   *
   * @return the builder
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.sequence = sequence;
    b.time = time;
    b.verb = verb;
    b.kind = kind;
    b.resource = resource;
    b.namespace = namespace;
    b.name = name;
    b.subresource = subresource;
    b.patchType = patchType;
    b.fieldManager = fieldManager;
    b.labelSelector = labelSelector;
    b.fieldSelector = fieldSelector;
    b.bodyResourceVersion = bodyResourceVersion;
    b.client = client;
    b.code = code;
    b.changed = changed;
    b.fault = fault;
    b.generation = generation;
    return b;
  }

  /**
   * A builder with every field unset (0, {@code false} or {@code null}).
   *
   * @return the builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Whether this is an event a test injected (not an API request).
   *
   * @return {@code true} for {@link dev.ctk.fake.EventInjector} calls
   */
  public boolean injected() {
    return INJECTOR.equals(client);
  }

  /**
   * Whether the verb writes: create, update, patch, delete or deletecollection (whatever the answer).
   *
   * @return {@code true} for write verbs of API requests
   */
  public boolean isWrite() {
    return !injected() && WRITE_VERBS.contains(verb);
  }

  /**
   * Whether the server answered with a 2xx code.
   *
   * @return {@code true} for 200-299 (and 101 for a websocket watch)
   */
  public boolean succeeded() {
    return code == 101 || (code >= 200 && code < 300);
  }

  /**
   * {@code namespace/name}, {@code name} for cluster-scoped objects, or {@code null} without a name.
   *
   * @return the object key
   */
  public String objectKey() {
    if (name == null) {
      return null;
    }
    return namespace == null ? name : namespace + "/" + name;
  }

  /**
   * One line, e.g. {@code "#12 patch configmaps default/web/status (apply, fieldManager=nginx) -> 200 changed"}. A
   * write that changed an object of a kind with a {@link #generation()} ends with it, e.g. {@code "#14 update
   * deployments default/web (resourceVersion=9) -> 200 changed, generation 2"}.
   *
   * @return the summary
   */
  public String summary() {
    StringBuilder out = new StringBuilder(describeRequest());
    if (injected()) {
      out.append(" [injected]");
    } else {
      out.append(" -> ").append(code == 0 ? "connection dropped" : Integer.toString(code));
      if (isWrite() && succeeded()) {
        out.append(changed ? " changed" : " no change");
        if (changed && generation != null) {
          out.append(", generation ").append(generation);
        }
      }
    }
    if (fault != null) {
      out.append(" [fault: ").append(fault).append(']');
    }
    return out.toString();
  }

  /**
   * The request part of {@link #summary()}, without the answer, e.g.
   * {@code "#12 patch configmaps default/web/status (apply, fieldManager=nginx)"}.
   *
   * @return the request as one line
   */
  public String describeRequest() {
    StringBuilder out = new StringBuilder("#").append(sequence).append(' ').append(verb).append(' ')
        .append(resource == null ? "?" : resource);
    String key = objectKey();
    if (key != null) {
      out.append(' ').append(key);
    } else if (namespace != null) {
      out.append(" in ").append(namespace);
    }
    if (subresource != null) {
      out.append('/').append(subresource);
    }
    StringBuilder details = new StringBuilder();
    append(details, patchType);
    append(details, fieldManager == null ? null : "fieldManager=" + fieldManager);
    append(details, labelSelector == null ? null : "labelSelector=" + labelSelector);
    append(details, fieldSelector == null ? null : "fieldSelector=" + fieldSelector);
    if (("update".equals(verb) || "patch".equals(verb)) && !"apply".equals(patchType) && !injected()) {
      append(details, bodyResourceVersion == null ? "no resourceVersion" : "resourceVersion=" + bodyResourceVersion);
    }
    if (details.length() > 0) {
      out.append(" (").append(details).append(')');
    }
    return out.toString();
  }

  private static void append(StringBuilder details, String part) {
    if (part == null) {
      return;
    }
    if (details.length() > 0) {
      details.append(", ");
    }
    details.append(part);
  }

  @Override
  public String toString() {
    return summary();
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof ApiRequestRecord o)) {
      return false;
    }
    return sequence == o.sequence && Objects.equals(time, o.time) && Objects.equals(verb, o.verb) &&
        Objects.equals(kind, o.kind) && Objects.equals(resource, o.resource) && Objects.equals(namespace,
        o.namespace) && Objects.equals(name, o.name) && Objects.equals(subresource, o.subresource) &&
        Objects.equals(patchType, o.patchType) && Objects.equals(fieldManager, o.fieldManager) &&
        Objects.equals(labelSelector, o.labelSelector) && Objects.equals(fieldSelector, o.fieldSelector) &&
        Objects.equals(bodyResourceVersion, o.bodyResourceVersion) && Objects.equals(client, o.client) && code ==
        o.code && changed == o.changed && Objects.equals(fault, o.fault) && Objects.equals(generation,
        o.generation);
  }

  @Override
  public int hashCode() {
    return Objects.hash(sequence, time, verb, kind, resource, namespace, name, subresource, patchType,
        fieldManager, labelSelector, fieldSelector, bodyResourceVersion, client, code, changed, fault, generation);
  }

  /** Builds an {@link ApiRequestRecord}; every setter returns this builder. */
  public static final class Builder {

    private long sequence;
    private Instant time;
    private String verb;
    private String kind;
    private String resource;
    private String namespace;
    private String name;
    private String subresource;
    private String patchType;
    private String fieldManager;
    private String labelSelector;
    private String fieldSelector;
    private String bodyResourceVersion;
    private String client;
    private int code;
    private boolean changed;
    private String fault;
    private Long generation;

    private Builder() {}

    /** Sets {@link ApiRequestRecord#sequence()}; returns this builder. */
    public Builder sequence(long value) {
      this.sequence = value;
      return this;
    }

    /** Sets {@link ApiRequestRecord#time()}; returns this builder. */
    public Builder time(Instant value) {
      this.time = value;
      return this;
    }

    /** Sets {@link ApiRequestRecord#verb()}; returns this builder. */
    public Builder verb(String value) {
      this.verb = value;
      return this;
    }

    /** Sets {@link ApiRequestRecord#kind()}; returns this builder. */
    public Builder kind(String value) {
      this.kind = value;
      return this;
    }

    /** Sets {@link ApiRequestRecord#resource()}; returns this builder. */
    public Builder resource(String value) {
      this.resource = value;
      return this;
    }

    /** Sets {@link ApiRequestRecord#namespace()}; returns this builder. */
    public Builder namespace(String value) {
      this.namespace = value;
      return this;
    }

    /** Sets {@link ApiRequestRecord#name()}; returns this builder. */
    public Builder name(String value) {
      this.name = value;
      return this;
    }

    /** Sets {@link ApiRequestRecord#subresource()}; returns this builder. */
    public Builder subresource(String value) {
      this.subresource = value;
      return this;
    }

    /** Sets {@link ApiRequestRecord#patchType()}; returns this builder. */
    public Builder patchType(String value) {
      this.patchType = value;
      return this;
    }

    /** Sets {@link ApiRequestRecord#fieldManager()}; returns this builder. */
    public Builder fieldManager(String value) {
      this.fieldManager = value;
      return this;
    }

    /** Sets {@link ApiRequestRecord#labelSelector()}; returns this builder. */
    public Builder labelSelector(String value) {
      this.labelSelector = value;
      return this;
    }

    /** Sets {@link ApiRequestRecord#fieldSelector()}; returns this builder. */
    public Builder fieldSelector(String value) {
      this.fieldSelector = value;
      return this;
    }

    /** Sets {@link ApiRequestRecord#bodyResourceVersion()}; returns this builder. */
    public Builder bodyResourceVersion(String value) {
      this.bodyResourceVersion = value;
      return this;
    }

    /** Sets {@link ApiRequestRecord#client()}; returns this builder. */
    public Builder client(String value) {
      this.client = value;
      return this;
    }

    /** Sets {@link ApiRequestRecord#code()}; returns this builder. */
    public Builder code(int value) {
      this.code = value;
      return this;
    }

    /** Sets {@link ApiRequestRecord#changed()}; returns this builder. */
    public Builder changed(boolean value) {
      this.changed = value;
      return this;
    }

    /** Sets {@link ApiRequestRecord#fault()}; returns this builder. */
    public Builder fault(String value) {
      this.fault = value;
      return this;
    }

    /** Sets {@link ApiRequestRecord#generation()}; returns this builder. */
    public Builder generation(Long value) {
      this.generation = value;
      return this;
    }

    /**
     * The record.
     *
     * @return a new record with the fields set so far
     */
    public ApiRequestRecord build() {
      return new ApiRequestRecord(this);
    }
  }
}
