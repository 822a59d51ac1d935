package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.watch.Watch;
import dev.ctk.fake.internal.watch.WatchSink;
import java.util.List;
import java.util.Map;

/**
 * One request as a transport carries it to the {@link RequestPipeline}: the Vert.x HTTP server, or the in-process
 * fabric8 client. The pipeline decides faults, serves and records; the exchange only carries the answer back.
 *
 * <p>The pipeline calls exactly one of {@link #respond}, {@link #drop} or {@link #acceptWatch} followed by
 * {@link #startWatch}, always after the journal entry for the request has been added.
 */
public interface ApiExchange {

  /** The request, parsed. */
  ApiRequest request();

  /**
   * The journal's transport name for this request ({@code http}, {@code http-watch}, {@code websocket-watch},
   * {@code in-process}, ...), for ctk's own tests.
   *
   * @param watch whether the request is served as a watch
   */
  String transport(boolean watch);

  /**
   * Answers with a complete response.
   *
   * @param code status code
   * @param headers response headers
   * @param body the body, empty for none
   */
  void respond(int code, Map<String, List<String>> headers, byte[] body);

  /** Ends the exchange without an answer, as a dropped connection. */
  void drop();

  /**
   * Creates the sink of a watch about to be registered. It queues what it is sent until {@link #startWatch}; if
   * the watch cannot be opened, the pipeline answers with {@link #respond} instead and the sink is forgotten.
   */
  WatchSink acceptWatch();

  /**
   * The watch is registered: answers 200 (streaming) or 101 (websocket), delivers what the sink queued, and from
   * now on closes the watch when the client goes away.
   */
  void startWatch(Watch watch);

  /**
   * Runs a task where this exchange's answers must be written from (the connection's event loop; a delivery thread
   * in process). Used for answers that come later, such as a delayed request.
   *
   * @throws java.util.concurrent.RejectedExecutionException when the transport is closed (the caller drops the
   *     exchange)
   */
  void execute(Runnable task);
}
