package dev.ctk.fake.internal.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.cel.CustomResourceRules;
import dev.ctk.fake.internal.schema.CustomResourceSchema;
import dev.ctk.fake.internal.select.FieldLabels;
import dev.ctk.fake.internal.status.ResourceName;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One served resource of the fake API server: a group/version/plural with its kind, names, scope, subresources
 * and verbs, as discovery describes it.
 *
 * <p>Immutable. {@code group} is {@code ""} for the core group.
 */
public final class ResourceType implements ResourceName {

  /** The eight verbs most resources serve (kube's Namespace has no {@code deletecollection}). */
  public static final List<String> STANDARD_VERBS =
      List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

  private static final List<String> VERBS_WITHOUT_DELETECOLLECTION =
      List.of("create", "delete", "get", "list", "patch", "update", "watch");

  private final String group;
  private final String version;
  private final String plural;
  private final String singular;
  private final String kind;
  private final boolean namespaced;
  private final boolean statusSubresource;
  private final List<String> shortNames;
  private final List<String> categories;
  private final GenerationPolicy generationPolicy;
  private final boolean custom;
  private final boolean unconditionalUpdate;
  private final ScalePaths scale;
  private final CustomResourceSchema schema;
  private final CustomResourceRules validationRules;
  private final boolean deleteCollection;
  private final boolean returnsDeletedObject;
  private final StoredForm storedForm;
  private final String goType;
  private final String zeroObject;
  private final FieldLabels fieldLabels;
  private final AdmissionRules admissionRules;
  private final List<NamedSubresource> namedSubresources;

  private ResourceType(Builder b) {
    this.group = Objects.requireNonNull(b.group, "group");
    this.version = Objects.requireNonNull(b.version, "version");
    this.plural = Objects.requireNonNull(b.plural, "plural");
    this.singular = b.singular == null ? b.kind.toLowerCase(java.util.Locale.ROOT) : b.singular;
    this.kind = Objects.requireNonNull(b.kind, "kind");
    this.namespaced = b.namespaced;
    this.statusSubresource = b.statusSubresource;
    this.shortNames = List.copyOf(b.shortNames);
    this.categories = List.copyOf(b.categories);
    this.generationPolicy = b.generationPolicy;
    this.custom = b.custom;
    this.unconditionalUpdate = b.unconditionalUpdate;
    this.scale = b.scale;
    this.schema = b.schema;
    this.validationRules = b.validationRules;
    this.deleteCollection = b.deleteCollection;
    this.returnsDeletedObject = b.returnsDeletedObject;
    this.storedForm = b.storedForm;
    this.goType = b.goType;
    this.zeroObject = b.zeroObject;
    this.fieldLabels = Objects.requireNonNull(b.fieldLabels, "fieldLabels");
    this.admissionRules = Objects.requireNonNull(b.admissionRules, "admissionRules");
    this.namedSubresources = List.copyOf(b.namedSubresources);
  }

  /**
   * Starts a description of a resource.
   *
   * @param group API group, {@code ""} for core
   * @param version API version, e.g. {@code v1}
   * @param plural resource name, e.g. {@code deployments}
   * @param kind kind, e.g. {@code Deployment}
   * @return a builder
   */
  public static Builder builder(String group, String version, String plural, String kind) {
    return new Builder(group, version, plural, kind);
  }

  @Override
  public String group() {
    return group;
  }

  public String version() {
    return version;
  }

  @Override
  public String plural() {
    return plural;
  }

  public String singular() {
    return singular;
  }

  public String kind() {
    return kind;
  }

  public String listKind() {
    return kind + "List";
  }

  public boolean namespaced() {
    return namespaced;
  }

  public boolean hasStatusSubresource() {
    return statusSubresource;
  }

  /** The {@code scale} subresource's paths, empty when the kind has no {@code scale} subresource. */
  public Optional<ScalePaths> scaleSubresource() {
    return Optional.ofNullable(scale);
  }

  /** Whether {@code subresource} ({@code "status"}, {@code "scale"}) is served for this kind. */
  public boolean hasSubresource(String subresource) {
    return switch (subresource) {
      case "status" -> statusSubresource;
      case "scale" -> scale != null;
      default -> false;
    };
  }

  public List<String> shortNames() {
    return shortNames;
  }

  /** The verbs discovery lists for this resource, in kube's (alphabetical) order. */
  public List<String> verbs() {
    return deleteCollection ? STANDARD_VERBS : VERBS_WITHOUT_DELETECOLLECTION;
  }

  /** Whether {@code DELETE} on the collection ({@code deletecollection}) is served. */
  public boolean servesDeleteCollection() {
    return deleteCollection;
  }

  /**
   * Whether a delete that removes the object at once answers the object itself (kube's registry option
   * {@code ReturnDeletedObject}: Pod, Service, ServiceAccount, PersistentVolume(Claim), ResourceQuota, Namespace,
   * StorageClass) rather than a {@code Status} of {@code Success}.
   */
  public boolean returnsDeletedObject() {
    return returnsDeletedObject;
  }

  public List<String> categories() {
    return categories;
  }

  public GenerationPolicy generationPolicy() {
    return generationPolicy;
  }

  /** Whether the kind comes from a CustomResourceDefinition (no strategic merge patch, always tracks generation). */
  public boolean custom() {
    return custom;
  }

  /** Whether an update without {@code metadata.resourceVersion} is accepted (false for custom resources). */
  public boolean allowsUnconditionalUpdate() {
    return unconditionalUpdate;
  }

  /** {@code v1} for core, {@code apps/v1} otherwise. */
  public String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  /** {@code group/version}, with {@code ""} group printed as in discovery ({@code v1}). */
  public String groupVersion() {
    return apiVersion();
  }

  /** The structural schema of this custom resource version, empty for built-in kinds. */
  public Optional<CustomResourceSchema> schema() {
    return Optional.ofNullable(schema);
  }

  /**
   * The compiled {@code x-kubernetes-validations} of this custom resource version's schema, empty for built-in kinds
   * and for schemas without rules.
   */
  public Optional<CustomResourceRules> validationRules() {
    return validationRules == null || validationRules.isEmpty() ? Optional.empty() : Optional.of(validationRules);
  }

  /**
   * An object as a read on this resource serves it: with this version's {@code apiVersion} (multi-version custom
   * resources share one store) and, for custom resources, pruned and defaulted by this version's schema, as kube
   * decodes stored objects. Returns {@code object} itself when nothing changes; never modifies it.
   */
  public ObjectNode serve(ObjectNode object) {
    ObjectNode out = fromStorage(object);
    if (!apiVersion().equals(out.path("apiVersion").asText())) {
      out = out == object ? object.deepCopy() : out;
      out.put("apiVersion", apiVersion());
    }
    return schema == null ? out : schema.serve(out);
  }

  /**
   * Identity of the stored collection: group and plural, independent of the version served (the stored form's
   * group for a resource kept in another's collection, see {@link StoredForm}).
   */
  public String storageKey() {
    return (storedForm == null ? group : storedForm.storageGroup()) + "/" + plural;
  }

  /** A body sent to this resource in the stored form ({@link StoredForm#toStorage}); itself for most resources. */
  public ObjectNode toStorage(ObjectNode served) {
    return storedForm == null ? served : storedForm.toStorage(served);
  }

  /**
   * A stored object in this resource's form, fields only ({@link StoredForm#fromStorage}; {@link #serve} also sets
   * the apiVersion and applies a custom resource's schema); itself for most resources.
   */
  public ObjectNode fromStorage(ObjectNode stored) {
    return storedForm == null ? stored : storedForm.fromStorage(stored);
  }

  /**
   * The Go type of a built-in kind's objects, the root from which strategic merge patch and server-side apply read
   * merge keys and list types ({@code dev.ctk.fake.internal.patch.PatchSchema}).
   *
   * @return e.g. {@code Deployment}; empty for a custom resource
   */
  public Optional<String> goType() {
    return Optional.ofNullable(goType);
  }

  /**
   * The JSON of a built-in kind's empty object as kube's Go types serialize it, without {@code metadata}: what
   * server-side apply compares a created object with.
   *
   * @return e.g. {@code {"spec":{},"status":{}}}; {@code {}} for a kind whose empty object has no struct fields and
   *     for a custom resource
   */
  public String zeroObject() {
    return zeroObject == null ? "{}" : zeroObject;
  }

  /**
   * The field labels this kind accepts in a field selector, with kube's aliases, values and error texts.
   *
   * @return the labels ({@link FieldLabels#standard()} for a kind without its own)
   */
  public FieldLabels fieldLabels() {
    return fieldLabels;
  }

  /**
   * Which of the fake's defaulting and validation rule sets this kind gets.
   *
   * @return the rule set ({@link AdmissionRules#METADATA_ONLY} for a custom resource)
   */
  public AdmissionRules admissionRules() {
    return admissionRules;
  }

  /**
   * The subresources this kind serves beyond {@code status} and {@code scale}, in every minor.
   *
   * @return in name order; empty for a custom resource
   */
  public List<NamedSubresource> namedSubresources() {
    return namedSubresources;
  }

  @Override
  public String toString() {
    return qualifiedResource() + " (" + apiVersion() + ", Kind=" + kind + ")";
  }

  /** Builder for {@link ResourceType}. */
  public static final class Builder {
    private final String group;
    private final String version;
    private final String plural;
    private final String kind;
    private String singular;
    private boolean namespaced = true;
    private boolean statusSubresource;
    private List<String> shortNames = List.of();
    private List<String> categories = List.of();
    private GenerationPolicy generationPolicy = GenerationPolicy.NONE;
    private boolean custom;
    private boolean unconditionalUpdate = true;
    private ScalePaths scale;
    private CustomResourceSchema schema;
    private CustomResourceRules validationRules;
    private boolean deleteCollection = true;
    private boolean returnsDeletedObject;
    private StoredForm storedForm;
    private String goType;
    private String zeroObject;
    private FieldLabels fieldLabels = FieldLabels.standard();
    private AdmissionRules admissionRules = AdmissionRules.METADATA_ONLY;
    private List<NamedSubresource> namedSubresources = List.of();

    private Builder(String group, String version, String plural, String kind) {
      this.group = group;
      this.version = version;
      this.plural = plural;
      this.kind = kind;
    }

    public Builder singular(String singular) {
      this.singular = singular;
      return this;
    }

    public Builder namespaced(boolean namespaced) {
      this.namespaced = namespaced;
      return this;
    }

    public Builder statusSubresource(boolean statusSubresource) {
      this.statusSubresource = statusSubresource;
      return this;
    }

    public Builder shortNames(List<String> shortNames) {
      this.shortNames = shortNames;
      return this;
    }

    public Builder categories(List<String> categories) {
      this.categories = categories;
      return this;
    }

    public Builder generationPolicy(GenerationPolicy generationPolicy) {
      this.generationPolicy = generationPolicy;
      return this;
    }

    public Builder custom(boolean custom) {
      this.custom = custom;
      this.unconditionalUpdate = !custom;
      return this;
    }

    /** Serves the {@code scale} subresource with these paths; {@code null} (the default) serves none. */
    public Builder scaleSubresource(ScalePaths scale) {
      this.scale = scale;
      return this;
    }

    /** The structural schema of a custom resource version ({@code null}, the default, for none). */
    public Builder schema(CustomResourceSchema schema) {
      this.schema = schema;
      return this;
    }

    /** The compiled CEL rules of a custom resource version ({@code null}, the default, for none). */
    public Builder validationRules(CustomResourceRules validationRules) {
      this.validationRules = validationRules;
      return this;
    }

    /** Whether {@code deletecollection} is served (the default); kube serves none for Namespaces. */
    public Builder deleteCollection(boolean deleteCollection) {
      this.deleteCollection = deleteCollection;
      return this;
    }

    /** Whether an immediate delete answers the deleted object instead of a Success Status (default false). */
    public Builder returnsDeletedObject(boolean returnsDeletedObject) {
      this.returnsDeletedObject = returnsDeletedObject;
      return this;
    }

    /** Keeps the objects in another resource's collection and form ({@code null}, the default, for none). */
    public Builder storedAs(StoredForm storedForm) {
      this.storedForm = storedForm;
      return this;
    }

    /** The Go type of a built-in kind's objects, e.g. {@code Deployment} ({@code null}, the default, for none). */
    public Builder goType(String goType) {
      this.goType = goType;
      return this;
    }

    /** The JSON of the kind's empty object without metadata ({@code null}, the default, for {@code {}}). */
    public Builder zeroObject(String zeroObject) {
      this.zeroObject = zeroObject;
      return this;
    }

    /** The field labels (the default: {@link FieldLabels#standard()}). */
    public Builder fieldLabels(FieldLabels fieldLabels) {
      this.fieldLabels = fieldLabels;
      return this;
    }

    /** The defaulting and validation rule set (the default: {@link AdmissionRules#METADATA_ONLY}). */
    public Builder admissionRules(AdmissionRules admissionRules) {
      this.admissionRules = admissionRules;
      return this;
    }

    /** The subresources beyond status and scale (the default: none). */
    public Builder namedSubresources(List<NamedSubresource> namedSubresources) {
      this.namedSubresources = namedSubresources;
      return this;
    }

    public ResourceType build() {
      return new ResourceType(this);
    }
  }
}
