package dev.ctk.fake.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.common.QueryBoolean;
import dev.ctk.fake.internal.common.WriteOptions;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.store.DeletePreconditions;
import dev.ctk.fake.internal.store.ListResult;
import dev.ctk.fake.internal.store.ObjectStore;
import dev.ctk.fake.internal.store.PropagationPolicy;
import java.util.List;
import java.util.function.Supplier;

/**
 * The verbs on resource URLs: get, list, create, update, patch, delete, deletecollection (watch is served by
 * {@link WebSocketWatch} and {@link ChunkedWatchStream}). Translates HTTP to {@link ObjectStore} calls and
 * objects back to JSON; every rule about objects lives in the store.
 */
final class ResourceHandler {

  private final ObjectStore store;
  private final ScaleSubresource scale;
  private final SubresourceHandler subresources;

  ResourceHandler(ObjectStore store) {
    this.store = store;
    this.scale = new ScaleSubresource(store);
    this.subresources = new SubresourceHandler(store);
  }

  ApiResponse handle(ApiRequest request, ResolvedResource r) {
    String method = request.method();
    if ("scale".equals(r.subresource())) {
      return scale.handle(request, r, switch (method) {
        case "PUT" -> MetaOptions.write(request, "UpdateOptions");
        case "PATCH" -> MetaOptions.write(request, "PatchOptions");
        default -> WriteOptions.API;
      });
    }
    if (r.subresource() != null && NamedSubresources.serves(r.type(), r.subresource(), store.kubeMinor())) {
      return subresources.handle(request, r);
    }
    boolean collection = r.name() == null;
    return switch (method) {
      case "GET" -> collection ? list(request, r) : JsonCodec.respond(200, served(r.type(),
          store.get(r.type(), r.namespace(), r.name())));
      case "POST" -> {
        requireCollection(r, collection, method);
        WriteOptions options = MetaOptions.write(request, "CreateOptions");
        ObjectNode created = store.create(r.type(), r.namespace(), JsonCodec.readObject(request, r.type()), options,
            Patches.owner(request, null));
        yield JsonCodec.respond(201, served(r.type(), created))
            .created(created.path("metadata").path("name").asText(null));
      }
      case "PUT" -> {
        requireObject(r, collection, method);
        WriteOptions options = MetaOptions.write(request, "UpdateOptions");
        yield JsonCodec.respond(200, served(r.type(), store.update(r.type(), r.namespace(), r.name(),
            JsonCodec.readObject(request, r.type()), r.subresource(), options,
            Patches.owner(request, r.subresource()))));
      }
      case "PATCH" -> {
        requireObject(r, collection, method);
        WriteOptions options = MetaOptions.write(request, "PatchOptions");
        if (Patches.isApply(request)) {
          ObjectStore.Applied applied = store.apply(r.type(), r.namespace(), r.name(), r.subresource(),
              Patches.applyRequest(r.type(), request), options);
          yield JsonCodec.respond(applied.created() ? 201 : 200, served(r.type(), applied.object()));
        }
        yield JsonCodec.respond(200, served(r.type(), store.patch(r.type(), r.namespace(), r.name(),
            r.subresource(), Patches.forRequest(r.type(), request), options,
            Patches.owner(request, r.subresource()))));
      }
      case "DELETE" -> collection ? deleteCollection(request, r) : delete(request, r);
      default -> throw ApiError.methodNotAllowed("the server does not allow this method on the requested resource");
    };
  }

  private ApiResponse list(ApiRequest request, ResolvedResource r) {
    long limit = parseLimit(request.param("limit"));
    MetaOptions.ListAt at = MetaOptions.list(request);
    requireNoResourceVersionWithContinue(request);
    Supplier<ListResult> read = () -> store.list(r.type(), r.namespace(), Selectors.labels(request),
        Selectors.fields(request, r.type(), null), limit, request.param("continue"));
    ListResult result = ListVersions.read(store, at, limit, read);
    return JsonCodec.respond(200, ListBody.of(r.type(), result.items(), result.resourceVersion(),
        result.continueToken(), result.remainingItemCount()));
  }

  private ApiResponse delete(ApiRequest request, ResolvedResource r) {
    if (r.subresource() != null) {
      throw ApiError.methodNotAllowed("the server does not allow this method on the requested resource");
    }
    JsonNode options = request.hasNoBody() ? null : JsonCodec.readTree(request, "error decoding DeleteOptions: ");
    WriteOptions write = MetaOptions.delete(request, options);
    ObjectStore.Deleted result = store.delete(r.type(), r.namespace(), r.name(), DeletePreconditions.from(options),
        write, PropagationPolicy.from(options, request.param("propagationPolicy"),
            request.param("orphanDependents")));
    if (result.removed() && !r.type().returnsDeletedObject()) {
      return JsonCodec.respond(200, success(r.type(), result.object()));
    }
    // kube answers 202 Accepted for an object that stays (finalizers, a Namespace) when the request asked for the
    // dependents' deletion with the deprecated orphanDependents: false, and 200 otherwise (handlers/delete.go)
    String orphan = options != null ? (options.hasNonNull("orphanDependents") ? options.get("orphanDependents")
        .asText() : null) : request.param("orphanDependents");
    int code = !result.removed() && orphan != null && !QueryBoolean.parse(orphan) ? 202 : 200;
    return JsonCodec.respond(code, served(r.type(), result.object()));
  }

  /**
   * What kube answers a delete that removed the object at once (kinds without {@code ReturnDeletedObject}): a
   * {@code Status} of {@code Success} whose details name the object by name, group, resource (in {@code kind}, as kube
   * does) and uid, so a client can tell it is gone rather than waiting for finalizers.
   */
  private static ObjectNode success(ResourceType type, ObjectNode removed) {
    ObjectNode status = JsonCodec.JSON.createObjectNode();
    status.put("kind", "Status");
    status.put("apiVersion", "v1");
    status.putObject("metadata");
    status.put("status", "Success");
    ObjectNode details = status.putObject("details");
    details.put("name", removed.path("metadata").path("name").asText());
    if (!type.group().isEmpty()) {
      details.put("group", type.group());
    }
    details.put("kind", type.plural());
    details.put("uid", removed.path("metadata").path("uid").asText());
    return status;
  }

  /** kube refuses a continue token together with a resourceVersion other than "" or "0" (400 BadRequest). */
  private static void requireNoResourceVersionWithContinue(ApiRequest request) {
    String continueToken = request.param("continue");
    String resourceVersion = request.param("resourceVersion");
    if (continueToken != null && !continueToken.isEmpty() && resourceVersion != null && !resourceVersion.isEmpty()
        && !resourceVersion.equals("0")) {
      throw ApiError.badRequest("specifying resource version is not allowed when using continue");
    }
  }

  private ApiResponse deleteCollection(ApiRequest request, ResolvedResource r) {
    if (!r.type().servesDeleteCollection() || (r.type().namespaced() && r.namespace() == null)) {
      // kube serves deletecollection of a namespaced kind only per namespace: /api/v1/configmaps is list/watch only
      throw ApiError.methodNotAllowed("the server does not allow this method on the requested resource");
    }
    JsonNode options = request.hasNoBody() ? null : JsonCodec.readTree(request, "error decoding DeleteOptions: ");
    WriteOptions write = MetaOptions.delete(request, options);
    List<ObjectNode> deleted = store.deleteCollection(r.type(), r.namespace(), Selectors.labels(request),
        Selectors.fields(request, r.type(), null), write, PropagationPolicy.from(options,
            request.param("propagationPolicy"), request.param("orphanDependents")));
    return JsonCodec.respond(200, ListBody.of(r.type(), deleted, store.resourceVersion(), null, null));
  }

  /** The object as served on this request's version (multi-version custom resources share one store). */
  static ObjectNode served(ResourceType type, ObjectNode object) {
    return type.serve(object);
  }

  private static long parseLimit(String limit) {
    if (limit == null || limit.isEmpty()) {
      return 0;
    }
    try {
      return Long.parseLong(limit);
    } catch (NumberFormatException e) {
      throw ApiError.badRequest("limit: Invalid value: \"" + limit + "\": must be an integer");
    }
  }

  private static void requireCollection(ResolvedResource r, boolean collection, String method) {
    if (!collection || r.subresource() != null || (r.type().namespaced() && r.namespace() == null)) {
      throw ApiError.methodNotAllowed("the server does not allow this method on the requested resource");
    }
  }

  private static void requireObject(ResolvedResource r, boolean collection, String method) {
    if (collection) {
      throw ApiError.methodNotAllowed("the server does not allow this method on the requested resource");
    }
  }
}
