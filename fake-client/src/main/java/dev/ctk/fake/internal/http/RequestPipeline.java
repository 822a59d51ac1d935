package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.fault.FaultAction;
import dev.ctk.fake.internal.fault.FaultEngine;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.store.ObjectStore;
import dev.ctk.fake.internal.watch.Watch;
import dev.ctk.fake.internal.watch.WatchSink;
import dev.ctk.fake.values.ApiRequestRecord;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The steps every request goes through, whichever transport brought it ({@link ApiExchange}): describe it as a
 * journal record, let the {@link FaultEngine} decide whether a fault rule fires (an error Status, a delay, a dropped
 * connection, a stale read), then serve it: watches are registered with the store (through {@link WatchSessions}) before the
 * client sees them open, everything else goes to the {@link ApiDispatcher}. The journal entry is always added
 * before the answer is handed to the exchange, so a client that has its answer finds its request in the journal.
 *
 * <p>The sequence number and arrival time are taken by the transport, on arrival. Delays and watch timers run on
 * the cluster's timer; a request a Delay fault holds when the cluster closes is dropped
 * ({@link #dropDelayedRequests()}), on both transports.
 */
public final class RequestPipeline {

  private static final Logger LOG = LoggerFactory.getLogger(RequestPipeline.class);

  private final ObjectStore store;
  private final RequestJournal journal;
  private final FaultEngine faults;
  private final ScheduledExecutorService timer;
  private final ApiDispatcher dispatcher;
  private final Set<Delayed> delayedRequests = ConcurrentHashMap.newKeySet();

  /**
   * Creates the pipeline of one cluster.
   *
   * @param store the storage served
   * @param journal where answered requests are recorded
   * @param faults the fault rules every request is checked against
   * @param timer the cluster's timer (delays, watch timeouts and bookmarks)
   * @param serverAddress {@code host:port} discovery reports
   */
  public RequestPipeline(ObjectStore store, RequestJournal journal, FaultEngine faults,
      ScheduledExecutorService timer, Supplier<String> serverAddress) {
    this.store = store;
    this.journal = journal;
    this.faults = faults;
    this.timer = timer;
    this.dispatcher = new ApiDispatcher(store, serverAddress);
  }

  /** The store served. */
  public ObjectStore store() {
    return store;
  }

  /** The journal requests are recorded in. */
  public RequestJournal journal() {
    return journal;
  }

  /**
   * Handles one request.
   *
   * @param exchange the request and where its answer goes
   * @param sequence its journal sequence, taken on arrival
   * @param time its arrival time
   */
  public void handle(ApiExchange exchange, long sequence, Instant time) {
    ApiRequest api = exchange.request();
    ApiRequestRecord pending = api.describe(sequence, time, store.registry());
    Optional<FaultEngine.Fired> fired;
    try {
      fired = faults.decide(pending);
    } catch (RuntimeException e) {
      // a pattern's where(..) condition threw: answer 500 naming it rather than leaving the client hanging
      ApiError error = ApiError.internal("ctk fault rule failed on " + pending.describeRequest() + ": " + e);
      journal.record(api, pending, error.code(), false, null, transport(exchange, api));
      refuse(exchange, error, null);
      return;
    }
    if (fired.isEmpty()) {
      serve(exchange, api, pending, null);
      return;
    }
    FaultAction action = fired.get().action();
    String fault = action.description();
    action.dispatch(new FaultAction.Handler() {
      @Override
      public void respond(FaultAction.Respond respond) {
        ApiError error = respond.error().apply(api.faultTarget(store.registry()));
        journal.record(api, pending, error.code(), false, fault, transport(exchange, api));
        refuse(exchange, error, respond.retryAfterSeconds());
      }

      @Override
      public void staleRead(FaultAction.StaleRead stale) {
        // a GET or LIST (FaultAction.StaleRead.appliesTo): the store answers its reads on this thread from the past
        store.readAt(stale.resourceVersion(), () -> {
          serve(exchange, api, pending, fault);
          return null;
        });
      }

      @Override
      public void delay(FaultAction.Delay delay) {
        Delayed delayed = new Delayed(exchange, api, pending, fault);
        delayedRequests.add(delayed);
        try {
          timer.schedule(() -> serveLater(delayed), Math.max(1, delay.delay().toMillis()), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
          // the cluster is closing: the connection goes with it
          dropDelayed(delayed);
        }
      }

      @Override
      public void drop(FaultAction.Drop drop) {
        journal.record(api, pending, 0, false, fault, transport(exchange, api));
        exchange.drop();
      }
    });
  }

  /** A request a Delay fault holds until the cluster's timer fires. */
  private record Delayed(ApiExchange exchange, ApiRequest api, ApiRequestRecord pending, String fault) {}

  /**
   * The delay is over: served where the exchange writes its answers from (unless {@link #dropDelayedRequests()}
   * dropped it meanwhile), or dropped if the transport is closed.
   */
  private void serveLater(Delayed delayed) {
    try {
      delayed.exchange().execute(() -> {
        if (delayedRequests.remove(delayed)) {
          serve(delayed.exchange(), delayed.api(), delayed.pending(), delayed.fault());
        }
      });
    } catch (RejectedExecutionException e) {
      dropDelayed(delayed);
    }
  }

  /** Records a delayed request as dropped (code 0) and drops its connection, once. */
  private void dropDelayed(Delayed delayed) {
    if (delayedRequests.remove(delayed)) {
      journal.record(delayed.api(), delayed.pending(), 0, false, delayed.fault(),
          transport(delayed.exchange(), delayed.api()));
      try {
        delayed.exchange().drop();
      } catch (RuntimeException e) {
        // the connection is gone already (the listener closed it)
      }
    }
  }

  /**
   * The cluster is closing: every request a Delay fault still holds is recorded as dropped and its connection
   * dropped now, as the HTTP listener's close drops its connections, rather than left for the client's timeout.
   */
  public void dropDelayedRequests() {
    for (Delayed delayed : List.copyOf(delayedRequests)) {
      dropDelayed(delayed);
    }
  }

  /**
   * Refuses a request before it is served (the transport found it cannot be served, e.g. the in-process
   * re-entrancy guard): records it and answers the error's Status.
   *
   * @param exchange the request and where its answer goes
   * @param sequence its journal sequence, taken on arrival
   * @param time its arrival time
   * @param error the answer
   */
  public void reject(ApiExchange exchange, long sequence, Instant time, ApiError error) {
    ApiRequest api = exchange.request();
    ApiRequestRecord pending = api.describe(sequence, time, store.registry());
    journal.record(api, pending, error.code(), false, null, transport(exchange, api));
    refuse(exchange, error, null);
  }

  private void serve(ApiExchange exchange, ApiRequest api, ApiRequestRecord pending, String fault) {
    if (PreparedWatch.isWatch(api)) {
      watch(exchange, api, pending, fault);
      return;
    }
    ApiDispatcher.Answer answer = dispatcher.dispatch(api);
    ApiResponse response = answer.response();
    journal.record(api, pending, response.code(), answer.changed(), fault, answer.generation(),
        exchange.transport(false));
    exchange.respond(response.code(), response.headers(), response.body());
  }

  private void watch(ApiExchange exchange, ApiRequest api, ApiRequestRecord pending, String fault) {
    String transport = exchange.transport(true);
    Watch watch;
    try {
      PreparedWatch prepared = PreparedWatch.prepare(api, store.registry(), store.kubeMinor());
      WatchSink sink = exchange.acceptWatch();
      watch = WatchSessions.open(timer, store, prepared, sink);
    } catch (ApiError e) {
      journal.record(api, pending, e.code(), false, fault, transport);
      refuse(exchange, e, null);
      return;
    } catch (RuntimeException e) {
      LOG.warn("ctk fake API server failed on {}", api, e);
      ApiError error = ApiError.internal(e.toString());
      journal.record(api, pending, error.code(), false, fault, transport);
      refuse(exchange, error, null);
      return;
    }
    journal.record(api, pending, api.isWebSocketUpgrade() ? 101 : 200, false, fault, transport);
    exchange.startWatch(watch);
  }

  private static String transport(ApiExchange exchange, ApiRequest api) {
    return exchange.transport(PreparedWatch.isWatch(api));
  }

  /** Answers an error Status instead of serving the request (a websocket upgrade is refused with it). */
  private static void refuse(ApiExchange exchange, ApiError error, Integer retryAfterSeconds) {
    if (error.plainText()) {
      ApiResponse text = JsonCodec.respond(error);
      exchange.respond(text.code(), text.headers(), text.body());
      return;
    }
    Map<String, List<String>> headers = new LinkedHashMap<>();
    headers.put("Content-Type", List.of("application/json"));
    headers.put("Cache-Control", List.of("no-cache, private"));
    if (retryAfterSeconds != null) {
      headers.put("Retry-After", List.of(Integer.toString(retryAfterSeconds)));
    }
    exchange.respond(error.code(), headers, JsonCodec.write(error.toStatus())
        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }
}
