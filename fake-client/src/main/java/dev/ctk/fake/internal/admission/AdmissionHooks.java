package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.values.AdmissionDecision;
import dev.ctk.fake.values.AdmissionHook;
import dev.ctk.fake.values.AdmissionRequest;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The admission hooks a test registered ({@code FakeCluster.Builder.withMutatingAdmission} and
 * {@code withValidatingAdmission}), called as kube-apiserver calls admission webhooks: mutating ones in order, each
 * seeing the previous one's changes (the object is defaulted again after each change), then validating ones in
 * order. The first denial is answered as kube answers a webhook denial: the hook's code (403 and reason
 * {@code Forbidden} by default) and {@code admission webhook "<name>" denied the request: <message>}; a hook that
 * throws is kube's 500 {@code Internal error occurred: failed calling webhook "<name>": <exception>}.
 *
 * <p>Thread-safe; hooks are called under the store lock, one at a time.
 */
public final class AdmissionHooks {

  private record Named(String name, AdmissionHook hook) {
  }

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private final List<Named> mutating = new CopyOnWriteArrayList<>();
  private final List<Named> validating = new CopyOnWriteArrayList<>();

  /** Adds a mutating hook after the ones registered before. */
  public void addMutating(String name, AdmissionHook hook) {
    mutating.add(new Named(Objects.requireNonNull(name, "name"), Objects.requireNonNull(hook, "hook")));
  }

  /** Adds a validating hook after the ones registered before. */
  public void addValidating(String name, AdmissionHook hook) {
    validating.add(new Named(Objects.requireNonNull(name, "name"), Objects.requireNonNull(hook, "hook")));
  }

  /** Whether no hook is registered. */
  public boolean isEmpty() {
    return mutating.isEmpty() && validating.isEmpty();
  }

  /** What one call is about (the objects are the store's working copies). */
  record Call(AdmissionRequest.Operation operation, ResourceType type, String namespace, String name,
      String subresource, ObjectNode object, ObjectNode oldObject, boolean dryRun) {
  }

  /**
   * Runs the mutating hooks; a patch replaces the content of {@code call.object()} in place and {@code redefault}
   * runs on it.
   *
   * @throws ApiError the denial, or 500 when a hook fails
   */
  void mutate(Call call, Consumer<ObjectNode> redefault) {
    for (Named named : mutating) {
      AdmissionDecision decision = review(named, call);
      if (!decision.allowed()) {
        throw denied(named.name(), decision);
      }
      if (decision.patchedObject().isPresent()) {
        if (call.object() == null) {
          throw ApiError.internal("failed calling webhook \"" + named.name() + "\": it returned a patched object "
              + "for a " + call.operation() + ", which has no object to change");
        }
        ObjectNode patched = SERIALIZATION.convertValue(decision.patchedObject().get(), ObjectNode.class);
        call.object().removeAll();
        call.object().setAll(patched);
        redefault.accept(call.object());
      }
    }
  }

  /**
   * Runs the validating hooks.
   *
   * @throws ApiError the denial, or 500 when a hook fails or returns a patch
   */
  void validate(Call call) {
    for (Named named : validating) {
      AdmissionDecision decision = review(named, call);
      if (!decision.allowed()) {
        throw denied(named.name(), decision);
      }
      if (decision.patchedObject().isPresent()) {
        throw ApiError.internal("failed calling webhook \"" + named.name() + "\": a validating admission hook "
            + "returned a patched object; only hooks registered with withMutatingAdmission(..) may change objects");
      }
    }
  }

  private static AdmissionDecision review(Named named, Call call) {
    AdmissionRequest request = AdmissionRequest.builder()
        .withOperation(call.operation())
        .withKind(call.type().group(), call.type().version(), call.type().kind(), call.type().plural())
        .withSubresource(call.subresource())
        .withNamespace(call.namespace())
        .withName(call.name())
        .withObject(generic(call.object()))
        .withOldObject(generic(call.oldObject()))
        .withDryRun(call.dryRun())
        .build();
    AdmissionDecision decision;
    try {
      decision = named.hook().review(request);
    } catch (RuntimeException e) {
      throw ApiError.internal("failed calling webhook \"" + named.name() + "\": the hook threw " + e);
    }
    if (decision == null) {
      throw ApiError.internal("failed calling webhook \"" + named.name() + "\": the hook returned null instead of an "
          + "AdmissionDecision");
    }
    return decision;
  }

  private static ApiError denied(String name, AdmissionDecision decision) {
    String deniedBy = "admission webhook \"" + name + "\" denied the request";
    String message = decision.message() == null || decision.message().isEmpty()
        ? deniedBy + " without explanation" : deniedBy + ": " + decision.message();
    return ApiError.of(decision.code(), decision.reason().orElse(""), message);
  }

  private static HasMetadata generic(ObjectNode object) {
    return object == null ? null : SERIALIZATION.convertValue(object, GenericKubernetesResource.class);
  }
}
