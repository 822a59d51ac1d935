package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.cel.CustomResourceRules;
import dev.ctk.fake.internal.common.WriteOptions;
import dev.ctk.fake.internal.registry.AdmissionRules;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.version.KubeMinor;
import dev.ctk.fake.values.AdmissionRequest.Operation;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The fake API server's defaulting and validation, called by the store at one place per write, in kube's order:
 * <ol>
 *   <li>{@link #defaults} on the decoded object (create, update and the result of a patch; not on a
 *       {@code /status} write, whose body only contributes its status);</li>
 *   <li>the store's metadata rules (name, generateName, uid, ...);</li>
 *   <li>{@link #admitCreate} or {@link #admitUpdate}: what the registry adds once the object is named
 *       (Job selector, Service addresses), then validation, which throws kube's 422 Invalid.</li>
 * </ol>
 *
 * <p>Each kind's rule set is named by its row in {@code BuiltinKinds} ({@link ResourceType#admissionRules()}) and
 * mapped here with an exhaustive switch; kinds named {@link AdmissionRules#METADATA_ONLY} get only the metadata checks
 * (name per {@link NameRule}, labels, annotations), custom resources their CRD version's structural schema too
 * ({@link dev.ctk.fake.internal.schema.CustomResourceSchema}: decoding in {@link #defaults}, validation in
 * {@link #admitCreate} and {@link #admitUpdate}), then their CRD validation rules
 * ({@link dev.ctk.fake.internal.cel.CustomResourceRules}) unless earlier errors block them, as in kube.
 *
 * <p>The admission hooks a test registered ({@link AdmissionHooks}) run around these steps as kube runs webhooks:
 * {@link #mutateCreate} / {@link #mutateUpdate} right after {@link #defaults}, {@link #validateCreate} /
 * {@link #validateUpdate} after the server's own validation, {@link #admitDelete} before a delete. Writes by the
 * test itself ({@link WriteOptions#seeding()}) skip the hooks.
 */
public final class Admission {

  private final AdmissionHooks hooks = new AdmissionHooks();
  private final KubeMinor minor;
  private final ServiceAddresses serviceAddresses = new ServiceAddresses();

  /**
   * One rule set: how names are checked, the defaults, what the registry adds to a named object before validation
   * (Job selector, Pod status, ...), and the validation of a create and of an update.
   */
  private record KindRules(NameRule names, Consumer<ObjectNode> defaults, Consumer<ObjectNode> completeCreate,
      Function<ObjectNode, FieldErrors> validateCreate,
      BiFunction<ObjectNode, ObjectNode, FieldErrors> validateUpdate) {

    KindRules(NameRule names, Consumer<ObjectNode> defaults, Function<ObjectNode, FieldErrors> validateCreate,
        BiFunction<ObjectNode, ObjectNode, FieldErrors> validateUpdate) {
      this(names, defaults, NOTHING_TO_COMPLETE, validateCreate, validateUpdate);
    }
  }

  private static final Consumer<ObjectNode> NO_DEFAULTS = o -> { };
  private static final Consumer<ObjectNode> NOTHING_TO_COMPLETE = o -> { };
  private static final Function<ObjectNode, FieldErrors> NOTHING_ON_CREATE = o -> new FieldErrors();
  private static final BiFunction<ObjectNode, ObjectNode, FieldErrors> NOTHING_ON_UPDATE = (a, b) -> new FieldErrors();

  private static final KindRules METADATA = new KindRules(NameRule.DNS1123_SUBDOMAIN, NO_DEFAULTS, NOTHING_ON_CREATE,
      NOTHING_ON_UPDATE);
  private static final KindRules PATH_SEGMENTS = new KindRules(NameRule.PATH_SEGMENT, NO_DEFAULTS, NOTHING_ON_CREATE,
      NOTHING_ON_UPDATE);
  private static final KindRules POD = new KindRules(NameRule.DNS1123_SUBDOMAIN, PodDefaults::pod,
      pod -> {
        PodAdmissionPlugins.onCreate(pod);
        PodStatus.pending(pod);
      },
      pod -> PodValidation.spec(pod.path("spec"), "spec"), PodUpdateValidation::update);
  private static final KindRules CLAIM = new KindRules(NameRule.DNS1123_SUBDOMAIN, ClaimDefaults::claim,
      ClaimDefaults::pending, NOTHING_ON_CREATE, ClaimValidation::update);
  private static final KindRules SERVICE = new KindRules(NameRule.DNS1035_LABEL, ServiceDefaults::service,
      NOTHING_ON_CREATE, ServiceValidation::update);
  private static final KindRules NAMESPACE = new KindRules(NameRule.DNS1123_LABEL, NO_DEFAULTS, NOTHING_ON_CREATE,
      NOTHING_ON_UPDATE);
  private static final KindRules CONFIG_MAP = new KindRules(NameRule.DNS1123_SUBDOMAIN, NO_DEFAULTS,
      ConfigValidation::configMap, ConfigValidation::configMapUpdate);
  private static final KindRules SECRET = new KindRules(NameRule.DNS1123_SUBDOMAIN, ConfigDefaults::secret,
      ConfigValidation::secret, ConfigValidation::secretUpdate);
  private static final KindRules DEPLOYMENT = new KindRules(NameRule.DNS1123_SUBDOMAIN, WorkloadDefaults::deployment,
      d -> WorkloadValidation.controller(d, "deployment"),
      (current, next) -> WorkloadValidation.selectorUpdate(current, next, "deployment"));
  private static final KindRules REPLICA_SET = new KindRules(NameRule.DNS1123_SUBDOMAIN,
      WorkloadDefaults::replicaSet, r -> WorkloadValidation.controller(r, "deployment"),
      (current, next) -> WorkloadValidation.selectorUpdate(current, next, "deployment"));
  private static final KindRules STATEFUL_SET = new KindRules(NameRule.DNS1123_SUBDOMAIN,
      WorkloadDefaults::statefulSet, s -> WorkloadValidation.controller(s, "statefulset"),
      WorkloadValidation::statefulSetUpdate);
  private static final KindRules DAEMON_SET = new KindRules(NameRule.DNS1123_SUBDOMAIN, WorkloadDefaults::daemonSet,
      d -> WorkloadValidation.controller(d, "daemonset"),
      (current, next) -> WorkloadValidation.selectorUpdate(current, next, "daemonset"));
  private static final KindRules JOB = new KindRules(NameRule.DNS1123_SUBDOMAIN, WorkloadDefaults::job,
      JobSelector::generate, WorkloadValidation::job, WorkloadValidation::jobUpdate);
  private static final KindRules CRON_JOB = new KindRules(NameRule.DNS1123_SUBDOMAIN, WorkloadDefaults::cronJob,
      NOTHING_ON_CREATE, NOTHING_ON_UPDATE);
  private static final KindRules EVENTS_EVENT = new KindRules(NameRule.DNS1123_SUBDOMAIN, NO_DEFAULTS,
      NOTHING_ON_CREATE, EventValidation::eventsUpdate);

  /**
   * Admission for a Kubernetes minor version.
   *
   * @param minor the minor emulated: decides StatefulSet defaults and how field errors print values
   */
  public Admission(KubeMinor minor) {
    this.minor = minor;
  }

  /** The rules of a kind's row in {@code BuiltinKinds}; every custom resource gets {@link #METADATA}. */
  private static KindRules rules(ResourceType type) {
    return switch (type.admissionRules()) {
      case METADATA_ONLY -> METADATA;
      case PATH_SEGMENT_NAMES -> PATH_SEGMENTS;
      case POD -> POD;
      case PERSISTENT_VOLUME_CLAIM -> CLAIM;
      case SERVICE -> SERVICE;
      case NAMESPACE -> NAMESPACE;
      case CONFIG_MAP -> CONFIG_MAP;
      case SECRET -> SECRET;
      case DEPLOYMENT -> DEPLOYMENT;
      case REPLICA_SET -> REPLICA_SET;
      case STATEFUL_SET -> STATEFUL_SET;
      case DAEMON_SET -> DAEMON_SET;
      case JOB -> JOB;
      case CRON_JOB -> CRON_JOB;
      case EVENTS_EVENT -> EVENTS_EVENT;
    };
  }

  /**
   * Applies kube's defaults to a decoded object, in place.
   *
   * @param type the resource written
   * @param object a private copy of the object sent (create, update) or of the patched object
   */
  public void defaults(ResourceType type, ObjectNode object) {
    rules(type).defaults().accept(object);
    if (minor.defaultsStatefulSetMaxUnavailable() && type.admissionRules() == AdmissionRules.STATEFUL_SET) {
      WorkloadDefaults.statefulSetMaxUnavailable(object);
    }
    type.schema().ifPresent(schema -> schema.decode(object));
  }

  /**
   * Completes and validates an object about to be created: called after the metadata rules named it.
   *
   * @param object the object (modified in place: Job selector and labels, Service addresses, Pod status)
   * @throws ApiError 422 Invalid with every problem found
   */
  public void admitCreate(ResourceType type, ObjectNode object) {
    KindRules rules = rules(type);
    FieldErrors errors = MetadataValidation.onCreate(object, rules.names());
    if (allocatesAddresses(type) && errors.isEmpty()) {
      errors.addAll(ServiceAllocation.create(object, serviceAddresses));
    }
    rules.completeCreate().accept(object);
    errors.addAll(rules.validateCreate().apply(object));
    type.schema().ifPresent(schema -> errors.addSchema(schema.validateCreate(object)));
    type.validationRules().ifPresent(cel -> errors.addSchema(errors.blocksValidationRules()
        ? List.of(CustomResourceRules.notChecked()) : cel.validateCreate(object)));
    errors.throwIfAny(type.group(), type.kind(), object.path("metadata").path("name").asText());
  }

  /**
   * Completes and validates an update (also the result of a patch): called after the metadata rules built the
   * object to store.
   *
   * @param current the stored object
   * @param next the object to store (modified in place: Service addresses the body left out)
   * @param subresource {@code "status"} (or another subresource writing single fields, e.g. {@code binding}) or
   *     {@code null}; a subresource write is not validated beyond what the store does
   * @throws ApiError 422 Invalid with every problem found
   */
  public void admitUpdate(ResourceType type, ObjectNode current, ObjectNode next, String subresource) {
    if (subresource != null) {
      type.schema().ifPresent(schema -> {
        // the status body went through the decoder too: prune and default it, then check it as kube's status strategy
        schema.decode(next);
        FieldErrors errors = new FieldErrors().addSchema(schema.validateStatusUpdate(next, current));
        type.validationRules().ifPresent(cel -> errors.addSchema(errors.blocksValidationRules()
            ? List.of(CustomResourceRules.notChecked()) : cel.validateStatusUpdate(next, current)));
        errors.throwIfAny(type.group(), type.kind(), next.path("metadata").path("name").asText());
      });
      return;
    }
    KindRules rules = rules(type);
    if (allocatesAddresses(type)) {
      ServiceAllocation.update(current, next, serviceAddresses);
    }
    FieldErrors errors = MetadataValidation.onUpdate(current, next);
    errors.addAll(rules.validateUpdate().apply(current, next));
    type.schema().ifPresent(schema -> errors.addSchema(schema.validateUpdate(next, current)));
    type.validationRules().ifPresent(cel -> errors.addSchema(errors.blocksValidationRules()
        ? List.of(CustomResourceRules.notChecked()) : cel.validateUpdate(next, current)));
    errors.throwIfAny(type.group(), type.kind(), next.path("metadata").path("name").asText());
  }

  /**
   * Told of every committed change of the store, under its lock, so that allocations ({@link #admitCreate},
   * {@link #admitUpdate}) know what the stored objects use without reading them all.
   *
   * @param before the object the commit replaced or removed ({@code null} on a create)
   * @param after the object it stored ({@code null} on a removal)
   */
  public void committed(ResourceType type, ObjectNode before, ObjectNode after) {
    if (allocatesAddresses(type)) {
      serviceAddresses.changed(before, after);
    }
  }

  /** The hooks a test registered (empty by default). */
  public AdmissionHooks hooks() {
    return hooks;
  }

  /**
   * Mutating hooks on a create: after {@link #defaults}, before the metadata rules (so {@code generateName} objects
   * have no name yet). A hook's patch replaces the object's content, which is then defaulted again.
   *
   * @param namespace the request's namespace ({@code null} for cluster-scoped kinds)
   * @param object the decoded, defaulted object (modified in place)
   */
  public void mutateCreate(ResourceType type, String namespace, ObjectNode object, WriteOptions options) {
    if (runsHooks(options)) {
      hooks.mutate(new AdmissionHooks.Call(Operation.CREATE, type, namespace, name(object), null, object, null,
          options.dryRun()), o -> defaults(type, o));
    }
  }

  /** Validating hooks on a create: after {@link #admitCreate}, with the object as it would be stored. */
  public void validateCreate(ResourceType type, ObjectNode object, WriteOptions options) {
    if (runsHooks(options)) {
      hooks.validate(new AdmissionHooks.Call(Operation.CREATE, type, namespaceOf(type, object), name(object), null,
          object, null, options.dryRun()));
    }
  }

  /**
   * Mutating hooks on an update (PUT, the result of a PATCH, status writes): after {@link #defaults}, on the object
   * sent. A patch replaces the sent object's content, which is then defaulted again (main resource writes).
   */
  public void mutateUpdate(ResourceType type, ObjectNode current, ObjectNode sent, String subresource,
      WriteOptions options) {
    if (runsHooks(options)) {
      hooks.mutate(new AdmissionHooks.Call(Operation.UPDATE, type, namespaceOf(type, current), name(current),
          subresource, sent, current, options.dryRun()), o -> {
            if (!"status".equals(subresource)) {
              defaults(type, o);
            }
          });
    }
  }

  /** Validating hooks on an update: after {@link #admitUpdate}, with the object as it would be stored. */
  public void validateUpdate(ResourceType type, ObjectNode current, ObjectNode next, String subresource,
      WriteOptions options) {
    if (runsHooks(options)) {
      hooks.validate(new AdmissionHooks.Call(Operation.UPDATE, type, namespaceOf(type, current), name(current),
          subresource, next, current, options.dryRun()));
    }
  }

  /** Mutating, then validating hooks on a delete (no new object; the stored one is the old object). */
  public void admitDelete(ResourceType type, ObjectNode current, WriteOptions options) {
    if (runsHooks(options)) {
      AdmissionHooks.Call call = new AdmissionHooks.Call(Operation.DELETE, type, namespaceOf(type, current),
          name(current), null, null, current, options.dryRun());
      hooks.mutate(call, o -> { });
      hooks.validate(call);
    }
  }

  private boolean runsHooks(WriteOptions options) {
    return !options.seeding() && !hooks.isEmpty();
  }

  private static String name(ObjectNode object) {
    return object.path("metadata").path("name").asText("");
  }

  private static String namespaceOf(ResourceType type, ObjectNode object) {
    return type.namespaced() ? object.path("metadata").path("namespace").asText("") : "";
  }

  /** Services get cluster IPs and node ports from the allocator, which sees every commit of one. */
  private static boolean allocatesAddresses(ResourceType type) {
    return type.admissionRules() == AdmissionRules.SERVICE;
  }
}
