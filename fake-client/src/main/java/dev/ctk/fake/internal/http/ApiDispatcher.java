package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.store.ObjectStore;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.vertx.core.Vertx;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ctk's mockwebserver {@link Dispatcher}: routes every request that is not an HTTP-streaming watch to discovery,
 * to the resource verbs, or (websocket watches) to a {@link WebSocketWatch} upgrade.
 *
 * <p>Runs on the Vert.x event loop: it only takes the store's short write lock, never waits on I/O.
 */
final class ApiDispatcher extends Dispatcher {

  private static final Logger LOG = LoggerFactory.getLogger(ApiDispatcher.class);

  private final Vertx vertx;
  private final ObjectStore store;
  private final ResourceHandler resources;
  private final DiscoveryHandler discovery;
  private final RequestJournal journal;

  ApiDispatcher(Vertx vertx, ObjectStore store, RequestJournal journal, Supplier<String> serverAddress) {
    this.vertx = vertx;
    this.store = store;
    this.resources = new ResourceHandler(store);
    this.discovery = new DiscoveryHandler(store.registry(), serverAddress);
    this.journal = journal;
  }

  @Override
  public MockResponse dispatch(RecordedRequest recorded) {
    ApiRequest request = ApiRequest.from(recorded);
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
    journal.record(request, response.code(), transport);
    return response;
  }

  private MockResponse route(ApiRequest request) {
    Optional<ResourcePath> path = ResourcePath.parse(request.path());
    if (path.isPresent()) {
      return resources.handle(request, ResolvedResource.resolve(path.get(), store.registry()));
    }
    return discovery.handle(request).orElseThrow(ApiError::unknownResource);
  }
}
