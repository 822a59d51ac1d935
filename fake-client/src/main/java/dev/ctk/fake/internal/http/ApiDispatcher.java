package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.store.ObjectStore;
import io.fabric8.mockwebserver.http.MockResponse;
import io.vertx.core.Vertx;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes every request that is not an HTTP-streaming watch to discovery, to the resource verbs, or (websocket
 * watches) to a {@link WebSocketWatch} upgrade, and says whether the request changed the store.
 *
 * <p>Runs on the Vert.x event loop: it only takes the store's short write lock, never waits on I/O. A write
 * (POST, PUT, PATCH, DELETE) is handled entirely inside one store transaction, so the store's resourceVersion
 * before and after it tells exactly whether this request committed a change: no other request can commit in
 * between (the store lock is held), and every commit the request causes (garbage collection, namespace
 * finalization, admission included) happens inside it.
 */
final class ApiDispatcher {

  private static final Logger LOG = LoggerFactory.getLogger(ApiDispatcher.class);
  private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

  /**
   * The answer to a request.
   *
   * @param response what to send
   * @param changed whether the request committed a change to the store
   * @param transport {@code http} or {@code websocket-watch}
   */
  record Answer(MockResponse response, boolean changed, String transport) {
  }

  private final Vertx vertx;
  private final ObjectStore store;
  private final ResourceHandler resources;
  private final DiscoveryHandler discovery;

  ApiDispatcher(Vertx vertx, ObjectStore store, Supplier<String> serverAddress) {
    this.vertx = vertx;
    this.store = store;
    this.resources = new ResourceHandler(store);
    this.discovery = new DiscoveryHandler(store.registry(), serverAddress);
  }

  Answer dispatch(ApiRequest request) {
    if (!WRITES.contains(request.method())) {
      return answer(request);
    }
    return store.inTransaction(() -> {
      long before = store.resourceVersion();
      Answer answer = answer(request);
      return new Answer(answer.response(), store.resourceVersion() != before, answer.transport());
    });
  }

  private Answer answer(ApiRequest request) {
    MockResponse response;
    String transport = "http";
    try {
      if (PreparedWatch.isWatch(request)) {
        PreparedWatch prepared = PreparedWatch.prepare(request, store.registry());
        if (!request.isWebSocketUpgrade()) {
          throw ApiError.badRequest("watch requests must be websocket upgrades or plain GETs");
        }
        transport = "websocket-watch";
        response = new MockResponse().setResponseCode(101)
            .withWebSocketUpgrade(new WebSocketWatch(vertx, store, prepared));
      } else {
        response = route(request);
      }
    } catch (ApiError e) {
      response = JsonCodec.respond(e);
    } catch (RuntimeException e) {
      LOG.warn("ctk fake API server failed on {}", request, e);
      response = JsonCodec.respond(ApiError.internal(e.toString()));
    }
    return new Answer(response, false, transport);
  }

  private MockResponse route(ApiRequest request) {
    Optional<ResourcePath> path = ResourcePath.parse(request.path());
    if (path.isPresent()) {
      return resources.handle(request, ResolvedResource.resolve(path.get(), store.registry()));
    }
    return discovery.handle(request).orElseThrow(ApiError::unknownResource);
  }
}
