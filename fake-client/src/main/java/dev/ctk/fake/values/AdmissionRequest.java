package dev.ctk.fake.values;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Objects;

/**
 * One write as an {@link AdmissionHook} sees it, with the fields of kube's {@code AdmissionReview} request that a
 * test needs: operation, kind and resource, subresource, namespace, name, the new and the old object, and dry run.
 *
 * <pre>{@code
 * AdmissionHook hook = request -> {
 *   if (request.operation() != AdmissionRequest.Operation.CREATE || !request.kind().equals("ConfigMap")) {
 *     return AdmissionDecision.allow();
 *   }
 *   ConfigMap configMap = request.object(ConfigMap.class);
 *   configMap.getMetadata().getLabels().put("team", "payments");   // labels exist in this test's ConfigMaps
 *   return AdmissionDecision.patch(configMap);
 * };
 * }</pre>
 *
 * <p>Objects are private copies: changing them has no effect unless a mutating hook returns the change with
 * {@link AdmissionDecision#patch}. {@link #builder()} makes requests for unit tests of a hook. Immutable.
 *
 * @since 0.1.0
 */
public final class AdmissionRequest {

  /** The operation being admitted, as kube names it. */
  public enum Operation {
    /** A create (POST). */
    CREATE,
    /** An update: PUT, PATCH, and writes to the {@code status} and {@code scale} subresources. */
    UPDATE,
    /** A delete (also each object of a deletecollection). */
    DELETE
  }

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private final Operation operation;
  private final String group;
  private final String version;
  private final String kind;
  private final String resource;
  private final String subresource;
  private final String namespace;
  private final String name;
  private final GenericKubernetesResource object;
  private final GenericKubernetesResource oldObject;
  private final boolean dryRun;

  private AdmissionRequest(Builder b) {
    this.operation = Objects.requireNonNull(b.operation, "operation");
    this.group = Objects.requireNonNull(b.group, "group");
    this.version = Objects.requireNonNull(b.version, "version");
    this.kind = Objects.requireNonNull(b.kind, "kind");
    this.resource = Objects.requireNonNull(b.resource, "resource");
    this.subresource = b.subresource == null ? "" : b.subresource;
    this.namespace = b.namespace == null ? "" : b.namespace;
    this.name = b.name == null ? "" : b.name;
    this.object = b.object;
    this.oldObject = b.oldObject;
    this.dryRun = b.dryRun;
  }

  /**
   * Starts a request, for unit tests of a hook.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /** @return CREATE, UPDATE or DELETE */
  public Operation operation() {
    return operation;
  }

  /** @return the API group of the kind, {@code ""} for core */
  public String group() {
    return group;
  }

  /** @return the version the request used, e.g. {@code v1} */
  public String version() {
    return version;
  }

  /** @return {@code group/version}, or {@code version} for core: the apiVersion of the objects */
  public String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  /** @return the kind, e.g. {@code Deployment} */
  public String kind() {
    return kind;
  }

  /** @return the resource (plural), e.g. {@code deployments} */
  public String resource() {
    return resource;
  }

  /** @return {@code status} or {@code scale}, or {@code ""} for the main resource */
  public String subresource() {
    return subresource;
  }

  /** @return the namespace, {@code ""} for cluster-scoped objects */
  public String namespace() {
    return namespace;
  }

  /**
   * The object's name; on CREATE with {@code generateName} it is {@code ""} for mutating hooks (as in kube, the name
   * is generated after them) and the generated name for validating hooks.
   *
   * @return the name
   */
  public String name() {
    return name;
  }

  /**
   * The object being written (a private copy): the decoded and defaulted request for mutating hooks, the object as
   * it would be stored for validating hooks. For a {@code status} write it is the whole object with the new status.
   *
   * @return the object, or {@code null} on DELETE
   */
  public GenericKubernetesResource object() {
    return object;
  }

  /**
   * The object being written, converted to a fabric8 class.
   *
   * @param type e.g. {@code Pod.class}
   * @param <T> the class
   * @return a new instance, or {@code null} on DELETE
   */
  public <T extends HasMetadata> T object(Class<T> type) {
    return object == null ? null : SERIALIZATION.convertValue(object, type);
  }

  /**
   * The stored object (a private copy).
   *
   * @return the object, or {@code null} on CREATE
   */
  public GenericKubernetesResource oldObject() {
    return oldObject;
  }

  /**
   * The stored object, converted to a fabric8 class.
   *
   * @param type e.g. {@code Pod.class}
   * @param <T> the class
   * @return a new instance, or {@code null} on CREATE
   */
  public <T extends HasMetadata> T oldObject(Class<T> type) {
    return oldObject == null ? null : SERIALIZATION.convertValue(oldObject, type);
  }

  /**
   * Whether the request is {@code dryRun=All}: nothing will be stored. Hooks with side effects should do nothing
   * then (kube only calls webhooks declaring {@code sideEffects: None} on dry runs).
   *
   * @return whether this is a dry run
   */
  public boolean dryRun() {
    return dryRun;
  }

  @Override
  public String toString() {
    return operation + " " + resource + (subresource.isEmpty() ? "" : "/" + subresource) + " "
        + (namespace.isEmpty() ? "" : namespace + "/") + name + (dryRun ? " (dry run)" : "");
  }

  /**
   * Builds an {@link AdmissionRequest}; operation, group, version, kind and resource are required.
   *
   * <pre>{@code
   * AdmissionRequest request = AdmissionRequest.builder()
   *     .withOperation(AdmissionRequest.Operation.CREATE)
   *     .withKind("", "v1", "ConfigMap", "configmaps")
   *     .withNamespace("default").withName("settings")
   *     .withObject(configMap)
   *     .build();
   * }</pre>
   *
   * @since 0.1.0
   */
  public static final class Builder {
    private Operation operation;
    private String group;
    private String version;
    private String kind;
    private String resource;
    private String subresource;
    private String namespace;
    private String name;
    private GenericKubernetesResource object;
    private GenericKubernetesResource oldObject;
    private boolean dryRun;

    private Builder() {}

    /**
     * @param operation CREATE, UPDATE or DELETE
     * @return this builder
     */
    public Builder withOperation(Operation operation) {
      this.operation = operation;
      return this;
    }

    /**
     * The kind and resource.
     *
     * @param group API group, {@code ""} for core
     * @param version API version, e.g. {@code v1}
     * @param kind kind, e.g. {@code ConfigMap}
     * @param resource plural resource name, e.g. {@code configmaps}
     * @return this builder
     */
    public Builder withKind(String group, String version, String kind, String resource) {
      this.group = group;
      this.version = version;
      this.kind = kind;
      this.resource = resource;
      return this;
    }

    /**
     * @param subresource {@code status}, {@code scale}, or {@code ""}
     * @return this builder
     */
    public Builder withSubresource(String subresource) {
      this.subresource = subresource;
      return this;
    }

    /**
     * @param namespace the namespace, {@code ""} for cluster-scoped objects
     * @return this builder
     */
    public Builder withNamespace(String namespace) {
      this.namespace = namespace;
      return this;
    }

    /**
     * @param name the object's name
     * @return this builder
     */
    public Builder withName(String name) {
      this.name = name;
      return this;
    }

    /**
     * @param object the object written (any fabric8 object; converted), or {@code null}
     * @return this builder
     */
    public Builder withObject(HasMetadata object) {
      this.object = generic(object);
      return this;
    }

    /**
     * @param oldObject the stored object (converted), or {@code null}
     * @return this builder
     */
    public Builder withOldObject(HasMetadata oldObject) {
      this.oldObject = generic(oldObject);
      return this;
    }

    /**
     * @param dryRun whether the request is a dry run
     * @return this builder
     */
    public Builder withDryRun(boolean dryRun) {
      this.dryRun = dryRun;
      return this;
    }

    /**
     * Builds the request.
     *
     * @return the request
     * @throws NullPointerException when operation or kind is missing
     */
    public AdmissionRequest build() {
      return new AdmissionRequest(this);
    }

    private static GenericKubernetesResource generic(HasMetadata object) {
      return object == null ? null : SERIALIZATION.convertValue(object, GenericKubernetesResource.class);
    }
  }
}
