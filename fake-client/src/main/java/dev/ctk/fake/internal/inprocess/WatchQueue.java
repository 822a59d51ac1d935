package dev.ctk.fake.internal.inprocess;

import dev.ctk.fake.internal.http.WatchSessions;
import dev.ctk.fake.internal.watch.EventText;
import dev.ctk.fake.internal.watch.Watch;
import dev.ctk.fake.internal.watch.WatchSink;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

/**
 * The queue between a store watch and an in-process client. {@link #send} runs under the store lock, in commit order:
 * it only appends and, if no drain is under way and the client has asked for an event, schedules one on the {@link
 * WatchDelivery}; an event not yet written ({@link EventText}) is written after that, while the delivery thread
 * wakes, so the writing does not delay the informer (if the delivery thread asks for the text first, it writes it and
 * the writer waits for it). A drain writes what it takes outside the queue's monitor.
 * A drain is scheduled only when it has something to hand over (an event and the demand for it, or the close), once at
 * {@link #start}, and ahead of an expected event (below), so a demand added with nothing queued wakes no thread. One
 * drain per watch at a time, so events leave in queue order, and never on the writer's thread or under the store lock.
 *
 * <p>A write that may send an event ({@link #expectEvent}) starts a drain before the event exists, when the client
 * waits for one and the JVM's limit of such drains allows (none unless the JVM opts in, see {@link WatchDelivery}):
 * that drain waits for the event on its thread, so the thread's wake-up overlaps the write's own work (on one 2-core
 * VM about 0.02 ms less per create seen by an informer; on another, about 0.02 ms more).
 *
 * <p>Delivery follows the client's demand: each unit of demand hands over one batch ({@link #batchLimit()} events
 * at most). The close is handed over after the last queued event, without demand. When more than
 * {@link WatchSessions#WRITE_QUEUE_BYTES} characters wait, the watch is closed and what waits is discarded, as the
 * HTTP path closes a connection whose write queue is full; the client re-watches from its last resourceVersion.
 *
 * <p>When the cluster closes, what still waits is discarded and the close is handed over at once, without demand, as
 * a closed connection ends a watch over HTTP. Once the delivery threads are gone (a drain is refused), the close is
 * handed over on the thread that asked for the drain.
 */
abstract class WatchQueue implements WatchSink {

  private final WatchDelivery delivery;
  private final ArrayDeque<EventText> queue = new ArrayDeque<>();
  private long queuedChars;
  private long demand;
  private boolean started;
  private boolean closeRequested;
  private boolean closeDelivered;
  private boolean draining;
  private boolean overflowed;
  private boolean clientGone;
  private volatile Watch watch;
  /** Set whenever something may be handed over: a drain woken ahead of an event ({@link #expectEvent}) waits for it. */
  private volatile boolean signalled;

  WatchQueue(WatchDelivery delivery, long initialDemand) {
    this.delivery = delivery;
    this.demand = initialDemand;
  }

  /** The most events one unit of demand hands over. */
  abstract int batchLimit();

  /** Hands events to the client (on a delivery thread). */
  abstract void deliver(List<String> events) throws Exception;

  /**
   * Tells the client the stream ended, once: on a delivery thread, or, when the cluster closed and its threads are
   * gone, on the thread that asked for a drain.
   */
  abstract void deliverClose();

  /**
   * Tells the client the stream broke, once, on a delivery thread: its own callback failed, or an event could not be
   * written.
   */
  abstract void deliverFailure(Exception failure);

  /**
   * The watch is registered: delivery may begin. A client that went away before this (its close came first) or a
   * queue that already overflowed has its watch closed at once.
   */
  final void start(Watch opened) {
    boolean closeNow;
    synchronized (this) {
      watch = opened;
      started = true;
      closeNow = overflowed || clientGone;
    }
    delivery.opened(this);
    if (closeNow) {
      opened.close();
    }
    schedule(true);
  }

  /** One more unit of demand from the client. */
  final void addDemand() {
    synchronized (this) {
      demand++;
    }
    schedule();
  }

  /**
   * The client goes away: the store watch is closed (which closes this sink) and nothing more is handed over. Before
   * {@link #start} it is remembered, and the watch is closed as soon as it starts.
   */
  final void clientGone() {
    synchronized (this) {
      clientGone = true;
    }
    abandon();
  }

  /** The cluster is closing: what waits is discarded and the close is handed over now, without demand. */
  final void clusterClosed() {
    abandon();
  }

  private void abandon() {
    Watch w;
    synchronized (this) {
      queue.clear();
      queuedChars = 0;
      closeRequested = true;
      w = watch;
    }
    signalled = true;
    if (w != null) {
      w.close();
    }
    schedule();
  }

  /** The store watch, once started ({@code null} before). */
  final Watch watch() {
    return watch;
  }

  @Override
  public final void send(String eventJson) {
    send(EventText.of(eventJson));
  }

  /**
   * Queues the event and wakes the delivery thread before the event is written: the text is written next, here on
   * the writer's thread, while the delivery thread wakes (if that thread asks for it first, it writes it and this
   * thread waits for it).
   */
  @Override
  public final void send(EventText event) {
    synchronized (this) {
      if (closeRequested || overflowed) {
        return;
      }
      queue.add(event);
    }
    signalled = true;
    schedule();
    long length = event.text().length();
    boolean overflow = false;
    Watch w;
    synchronized (this) {
      if (overflowed || closeRequested) {
        return;   // no later send is taken: nothing left to count against
      }
      queuedChars += length;
      if (queuedChars > WatchSessions.WRITE_QUEUE_BYTES) {
        overflowed = true;
        overflow = true;
        queue.clear();
        queuedChars = 0;
      }
      w = watch;
    }
    if (overflow && w != null) {
      // not inline: send runs under the store lock, inside the hub's fan-out
      try {
        delivery.execute(w::close);
      } catch (RejectedExecutionException e) {
        // the cluster is closed: it has closed its watches already
      }
    }
    schedule();
  }

  @Override
  public final void close() {
    synchronized (this) {
      closeRequested = true;
    }
    signalled = true;
    schedule();
  }

  /**
   * A write that may send this queue an event has begun: when the client waits for one (demand, nothing queued, no
   * drain under way) and {@link WatchDelivery#startWaiting} allows it, a drain is started now. It waits for the event
   * on its delivery thread, without parking, at most {@link WatchDelivery#waitNanos}, then drains as usual: the
   * thread's wake-up overlaps the write's own work instead of following it. Without an event in that time the drain
   * ends with nothing handed over, and the next event schedules one as usual.
   *
   * <p>When more watches are told of the write than drains may wait at once ({@link WatchDelivery#waitersAtOnce}),
   * none waits: the last of their clients to see the write waits for a thread's wake-up anyway, and a waiting thread
   * would take a core from the drains of the others.
   */
  @Override
  public final void expectEvent(int watchesTold) {
    if (watchesTold > delivery.waitersAtOnce()) {
      return;
    }
    synchronized (this) {
      if (draining || !started || closeDelivered || closeRequested || overflowed || demand <= 0 || !queue.isEmpty()
          || !delivery.startWaiting()) {
        return;
      }
      draining = true;
      signalled = false;
    }
    try {
      delivery.execute(this::awaitThenDrain);
    } catch (RuntimeException | Error e) {
      delivery.stopWaiting();
      synchronized (this) {
        draining = false;
      }
      if (!(e instanceof RejectedExecutionException)) {
        throw e;   // as a failed drain in schedule would: the write fails, later watches are not told
      }
      endWithoutThreads();   // the cluster is closed: as when a drain is refused in schedule
    }
  }

  private void awaitThenDrain() {
    try {
      long start = System.nanoTime();
      long wait = delivery.waitNanos();
      while (!signalled && System.nanoTime() - start < wait) {
        Thread.onSpinWait();
      }
    } finally {
      delivery.stopWaiting();
    }
    drain();
  }

  private void schedule() {
    schedule(false);
  }

  /**
   * Schedules a drain if none is under way and there is something to hand over: an added demand with nothing queued
   * (fabric8 asks for the next event after each one) wakes no thread. At {@link #start} a drain is scheduled even
   * without work, so that a watch started after the cluster closed is refused a thread and delivers its close.
   */
  private void schedule(boolean evenWithoutWork) {
    synchronized (this) {
      if (draining || !started || closeDelivered || !(evenWithoutWork || hasWork())) {
        return;
      }
      draining = true;
    }
    try {
      delivery.execute(this::drain);
    } catch (RejectedExecutionException e) {
      synchronized (this) {
        draining = false;
      }
      endWithoutThreads();
    }
  }

  /** What {@link #drain} would hand over now: a batch (queued events and demand) or the close (nothing queued). */
  private boolean hasWork() {
    return (demand > 0 && !queue.isEmpty()) || (queue.isEmpty() && closeRequested);
  }

  /** The delivery threads are gone (the cluster closed): the close is handed over here, once, and nothing else. */
  private void endWithoutThreads() {
    Watch w;
    boolean deliver;
    synchronized (this) {
      queue.clear();
      queuedChars = 0;
      closeRequested = true;
      deliver = !closeDelivered;
      closeDelivered = true;
      w = watch;
    }
    delivery.ended(this);
    if (w != null) {
      w.close();
    }
    if (deliver) {
      deliverClose();
    }
  }

  private void drain() {
    while (true) {
      List<EventText> taken = null;
      synchronized (this) {
        if (closeDelivered) {
          draining = false;
          return;
        }
        if (demand > 0 && !queue.isEmpty()) {
          int size = Math.min(batchLimit(), queue.size());
          taken = new ArrayList<>(size);
          for (int i = 0; i < size; i++) {
            taken.add(queue.poll());
          }
          demand--;
        } else if (queue.isEmpty() && closeRequested) {
          closeDelivered = true;
          delivery.ended(this);
        } else {
          draining = false;
          return;
        }
      }
      if (taken == null) {
        deliverClose();
        continue;
      }
      try {
        deliver(written(taken));   // written outside the monitor: one drain per queue at a time
      } catch (Exception e) {
        synchronized (this) {
          closeDelivered = true;
          closeRequested = true;   // no later send is queued
          queue.clear();
          queuedChars = 0;
        }
        delivery.ended(this);
        Watch w = watch;
        if (w != null) {
          w.close();
        }
        deliverFailure(e);
      }
    }
  }

  /** The taken events' texts (written here when the writer has not written them yet), uncounted from the queue. */
  private List<String> written(List<EventText> taken) {
    List<String> batch = new ArrayList<>(taken.size());
    long length = 0;
    for (EventText event : taken) {
      String text = event.text();
      length += text.length();
      batch.add(text);
    }
    synchronized (this) {
      queuedChars -= length;
    }
    return batch;
  }
}
