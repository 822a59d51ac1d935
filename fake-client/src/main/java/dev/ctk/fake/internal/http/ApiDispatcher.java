package dev.ctk.fake.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.store.ObjectStore;
import dev.ctk.fake.internal.store.StoredObject;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes every request that is not a watch (the {@link RequestPipeline} opens those) to discovery or to the
 * resource verbs, and says whether the request changed the store.
 *
 * <p>Runs on the transport's thread (a Vert.x event loop, or the caller's thread in process): it only takes the
 * store's short write lock, never waits on I/O. A write
 * (POST, PUT, PATCH, DELETE) is handled entirely inside one store transaction, so the store's resourceVersion
 * before and after it tells exactly whether this request committed a change: no other request can commit in
 * between (the store lock is held), and every commit the request causes (garbage collection, namespace
 * finalization, admission included) happens inside it. Inside the same transaction it reads the written object's
 * {@code metadata.generation} back from the store, for the journal.
 */
final class ApiDispatcher {

  /** kube-apiserver's limit on a request body (3 MiB). */
  static final int MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

  private static final Logger LOG = LoggerFactory.getLogger(ApiDispatcher.class);
  private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

  /**
   * The answer to a request.
   *
   * @param response what to send
   * @param changed whether the request committed a change to the store
   * @param generation {@code metadata.generation} of the object a successful write left in the store, or
   *     {@code null} (reads, failures, removed objects, collections, kinds without generation)
   */
  record Answer(ApiResponse response, boolean changed, Long generation) {
  }

  private final ObjectStore store;
  private final ResourceHandler resources;
  private final DiscoveryHandler discovery;

  ApiDispatcher(ObjectStore store, Supplier<String> serverAddress) {
    this.store = store;
    this.resources = new ResourceHandler(store);
    this.discovery = new DiscoveryHandler(store.registry(), serverAddress, store.kubeMinor());
  }

  Answer dispatch(ApiRequest request) {
    if (!WRITES.contains(request.method())) {
      return answer(request);
    }
    return store.inTransaction(() -> {
      long before = store.resourceVersion();
      Answer answer = answer(request);
      return new Answer(answer.response(), store.resourceVersion() != before,
          storedGeneration(request, answer.response()));
    });
  }

  /**
   * The generation of the object a successful write names (by its path, or for a create by the name in the
   * answer), as the store holds it now; {@code null} when the write failed, the object is not there (removed, a
   * dry-run create) or it has no generation.
   */
  private Long storedGeneration(ApiRequest request, ApiResponse response) {
    if (response.code() < 200 || response.code() >= 300) {
      return null;
    }
    Optional<ResourcePath> path = request.resourcePath();
    if (path.isEmpty()) {
      return null;
    }
    ResolvedResource r;
    try {
      r = ResolvedResource.resolve(path.get(), store.registry(), store.kubeMinor());
    } catch (ApiError e) {
      return null;
    }
    String name = r.name() != null ? r.name() : response.createdName();
    Optional<StoredObject> stored = name == null ? Optional.empty() : store.find(r.type(), r.namespace(), name);
    if (stored.isEmpty()) {
      return null;
    }
    JsonNode generation = stored.get().object().path("metadata").path("generation");
    return generation.isIntegralNumber() ? generation.asLong() : null;
  }

  private Answer answer(ApiRequest request) {
    ApiResponse response;
    try {
      response = route(request);
    } catch (ApiError e) {
      response = JsonCodec.respond(e, store.kubeMinor());
    } catch (RuntimeException e) {
      LOG.warn("ctk fake API server failed on {}", request, e);
      response = JsonCodec.respond(ApiError.internal(e.toString()));
    }
    return new Answer(response, false, null);
  }

  private ApiResponse route(ApiRequest request) {
    if (request.body() != null && request.body().length > MAX_REQUEST_BODY_BYTES) {
      // kube-apiserver's --max-request-bytes default, checked as it reads the body of a create, update or patch
      throw ApiError.requestEntityTooLarge(MAX_REQUEST_BODY_BYTES);
    }
    Optional<ResourcePath> path = request.resourcePath();
    if (path.isPresent()) {
      return resources.handle(request, ResolvedResource.resolve(path.get(), store.registry(), store.kubeMinor()));
    }
    return discovery.handle(request).orElseThrow(() -> UnservedPaths.forPath(request.path()));
  }
}
