package dev.ctk.fake;

import dev.ctk.fake.internal.watch.WatchFaultRule;

/**
 * A hold on watch delivery, made by {@link WatchFaults#hold}: every event the server would send on the matching
 * watches (BOOKMARK events included, so a client cannot resume past a held event) waits, in order, until
 * {@link #release()}. Reads (GET, LIST) stay fresh meanwhile, so the informers behind those watches serve a stale
 * cache: the situation every "read from the cache, write to the API" controller must survive.
 *
 * <pre>{@code
 * HeldDelivery stale = cluster.watchFaults().hold(WatchPattern.kind("ConfigMap").labelSelector("app=web"));
 * client.configMaps().withName("web").edit(c -> withData(c, "v", "2"));   // GET sees v=2, the informer v=1
 * stale.release();                                                        // the informer catches up, in order
 * }</pre>
 *
 * <p>When a held watch ends before the release (its client stops the informer or drops the connection, its
 * {@code timeoutSeconds} passes, {@link WatchFaults#close} or {@link WatchFaults#expire} hit it), the events held
 * for it are discarded: they are recorded as {@code DROPPED} in {@link WatchFaults#deliveries()} and nothing is lost,
 * because the client re-watches from the last resourceVersion it received and the server replays the changes from
 * its watch history. While the hold is still in force, that new watch matches the hold too, so the replay is held
 * again. {@link #release()} delivers what is held on the watches open at that moment; for a watch that has ended
 * it delivers nothing.
 *
 * <p>Thread-safe.
 *
 * @since 0.1.0
 */
public final class HeldDelivery extends WatchRule {

  HeldDelivery(WatchFaultRule rule, WatchFaults faults) {
    super(rule, faults);
  }

  /**
   * Ends the hold: every event it holds on open watches is sent now, in the order it would have been sent; later
   * events flow normally. Idempotent: a second call releases nothing.
   *
   * @return how many events were held on open watches and are now sent (0 when already released)
   */
  public int release() {
    return faults().end(rule());
  }

  /** The same as {@link #release()}: a hold never ends by discarding what it holds. */
  @Override
  public void remove() {
    release();
  }

  /**
   * How many events this hold holds now, on open watches.
   *
   * @return the count
   */
  public int held() {
    return faults().held(rule());
  }
}
