package dev.ctk.fake;

import dev.ctk.fake.internal.watch.WatchFaultRule;

/**
 * A hold on watch delivery, made by {@link WatchFaults#hold} (or {@link WatchFaults#holdAfter}, which lets a number
 * of events through first and never holds BOOKMARKs): every event the server would send on the matching
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
 * <p>{@link #releaseCoalesced()} ends a hold as a watch cache under load does: the informer sees only the last
 * state of each object, never the states in between.
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

  /**
   * Ends the hold, sending per watch only the net event of each object among the events it holds (objects are told
   * apart by uid, so a deleted and re-created object is two objects):
   * <ul>
   *   <li>ADDED, then MODIFIED (any number): one ADDED carrying the last object;
   *   <li>ADDED ... DELETED: nothing;
   *   <li>MODIFIED (one or more): one MODIFIED carrying the last object;
   *   <li>MODIFIED (any number), then DELETED: one DELETED carrying the last object;
   *   <li>DELETED, then ADDED of an object of the same name (a new uid): both, they are two objects.
   * </ul>
   * Net events are sent in the order of each object's last event, at that event's resourceVersion; BOOKMARKs it
   * holds keep their places. The other events are logged {@code DROPPED} with detail
   * {@code coalesced into rv=<n>}, {@code n} the resourceVersion of the object's last held event (for an object
   * created and deleted while held, nothing is sent at that resourceVersion either). Later events flow normally.
   * Idempotent: a second call (or one after {@link #release()}) sends nothing.
   *
   * <pre>{@code
   * HeldDelivery burst = cluster.watchFaults().holdAfter(WatchPattern.kind("ConfigMap"), 0);
   * // three edits of "web": MODIFIED rv=7, rv=8, rv=9 are held
   * burst.releaseCoalesced();   // 1: MODIFIED web rv=9; rv=7 and rv=8 DROPPED (coalesced into rv=9)
   * }</pre>
   *
   * @return how many events were sent (0 when already released)
   * @since 0.1.0
   */
  public int releaseCoalesced() {
    return faults().endCoalesced(rule());
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
