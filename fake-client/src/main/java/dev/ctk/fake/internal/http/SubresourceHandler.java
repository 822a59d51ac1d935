package dev.ctk.fake.internal.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.NamedSubresource;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.store.ObjectStore;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Map;

/**
 * The verbs on the {@link NamedSubresources}: a verb discovery does not list answers 405; then
 * {@link PodConnections} (log, exec, attach, portforward, proxy), {@link PodScheduling} (binding, eviction), the
 * field updates ({@code namespaces/finalize} writes only {@code spec.finalizers}, {@code pods/ephemeralcontainers}
 * only {@code spec.ephemeralContainers}; GET answers the object) and {@code serviceaccounts/token}.
 *
 * <p>Limits: the field updates are not validated (kube checks ephemeral containers as it checks containers);
 * {@code serviceaccounts/token} answers a TokenRequest whose token is an unsigned placeholder (the fake
 * authenticates nobody, so any token works against it), expiring after {@code spec.expirationSeconds} (default
 * 3600).
 */
final class SubresourceHandler {

  private static final Map<String, String> VERBS = Map.of("GET", "get", "POST", "create", "PUT", "update",
      "PATCH", "patch", "DELETE", "delete");

  private final ObjectStore store;
  private final PodConnections connections;
  private final PodScheduling scheduling;

  SubresourceHandler(ObjectStore store) {
    this.store = store;
    this.connections = new PodConnections(store);
    this.scheduling = new PodScheduling(store);
  }

  ApiResponse handle(ApiRequest request, ResolvedResource r) {
    String method = request.method();
    NamedSubresource entry = NamedSubresources.of(r.type(), store.kubeMinor()).stream()
        .filter(e -> e.name().equals(r.subresource())).findFirst().orElseThrow(ApiError::unknownResource);
    if (r.name() == null || !entry.verbs().contains(VERBS.getOrDefault(method, ""))) {
      throw ApiError.methodNotAllowed("the server does not allow this method on the requested resource");
    }
    return switch (r.subresource()) {
      case "log", "exec", "attach", "portforward" -> connections.pod(request, r);
      case "proxy" -> connections.proxy(r);
      case "binding" -> scheduling.bind(request, r, MetaOptions.write(request, "CreateOptions"));
      case "eviction" -> scheduling.evict(request, r, MetaOptions.write(request, "CreateOptions"));
      case "token" -> token(request, r);
      default -> fieldUpdate(request, r);
    };
  }

  /** {@code namespaces/finalize}, {@code pods/ephemeralcontainers}: GET, PUT and PATCH of one field. */
  private ApiResponse fieldUpdate(ApiRequest request, ResolvedResource r) {
    return switch (request.method()) {
      case "GET" -> JsonCodec.respond(200, ResourceHandler.served(r.type(),
          store.get(r.type(), r.namespace(), r.name())));
      case "PUT" -> {
        var options = MetaOptions.write(request, "UpdateOptions");
        yield JsonCodec.respond(200, ResourceHandler.served(r.type(), store.update(r.type(), r.namespace(),
            r.name(), JsonCodec.readObject(request, r.type()), r.subresource(), options,
            Patches.owner(request, r.subresource()))));
      }
      default -> {
        var options = MetaOptions.write(request, "PatchOptions");
        yield JsonCodec.respond(200, ResourceHandler.served(r.type(), store.patch(r.type(), r.namespace(),
            r.name(), r.subresource(), Patches.forRequest(r.type(), request), options,
            Patches.owner(request, r.subresource()))));
      }
    };
  }

  private ApiResponse token(ApiRequest request, ResolvedResource r) {
    MetaOptions.write(request, "CreateOptions");
    store.get(r.type(), r.namespace(), r.name());
    ObjectNode tokenRequest = request.hasNoBody() ? JsonCodec.JSON.createObjectNode()
        : JsonCodec.readObject(request);
    ObjectNode spec = tokenRequest.get("spec") instanceof ObjectNode s ? s : tokenRequest.putObject("spec");
    long seconds = spec.path("expirationSeconds").asLong(3600);
    spec.put("expirationSeconds", seconds);
    tokenRequest.put("kind", "TokenRequest");
    tokenRequest.put("apiVersion", "authentication.k8s.io/v1");
    ObjectNode meta = tokenRequest.putObject("metadata");
    meta.put("name", r.name());
    meta.put("namespace", r.namespace());
    meta.putNull("creationTimestamp");
    String subject = "system:serviceaccount:" + r.namespace() + ":" + r.name();
    tokenRequest.putObject("status")
        .put("token", "ctk-fake." + Base64.getUrlEncoder().withoutPadding().encodeToString(subject.getBytes(
            java.nio.charset.StandardCharsets.UTF_8)))
        .put("expirationTimestamp", Instant.parse(store.now()).plus(seconds, ChronoUnit.SECONDS).toString());
    return JsonCodec.respond(201, tokenRequest);
  }
}
