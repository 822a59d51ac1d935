package dev.ctk.harness.internal.perturb;

import dev.ctk.fake.ApiFault;
import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.FaultRule;
import dev.ctk.fake.HeldDelivery;
import dev.ctk.fake.WatchPattern;
import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.fake.values.FaultFiring;
import dev.ctk.fake.values.RequestPattern;
import dev.ctk.harness.values.ControllerInstance;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The stale view of a {@link dev.ctk.harness.values.Perturbation#STALE_RESTART}: as the fresh instance starts, its first LISTs of the
 * point's kind are served as the store was when the first controller started ({@code ApiFault.staleRead}: an
 * apiserver cache lagging behind), and the watches of that kind are held ({@code holdAfter(kind, 0)}), so the fresh
 * instance acts on the old state of that kind first while it reads every other kind as it is. Once it has been idle
 * for 100 ms (at most 2 s after it started) the holds are released in order and the informers catch up.
 *
 * <p>How narrow it is: the stale-read rule answers only LISTs sent on the thread that starts the fresh instance
 * (fabric8 informers send their first LIST from the thread that starts them; the fake's in-process transport serves
 * it there), at most one per informer of the kind, or, for a controller process of another framework, LISTs that
 * carry the fresh instance's {@code User-Agent}, and is removed once the fresh instance's caches synced: the
 * test's own LISTs, other controllers' and the fresh instance's later relists are served fresh. The hold cannot be
 * narrowed that way (a watch pattern names kind, namespace and selectors, not a client): while it is in force, every
 * watch of the kind waits, those of other controllers and of the test included.
 *
 * <p>It takes effect ({@link #fired()}) only if the fresh instance watches the kind and at least one of its LISTs
 * was answered as of the old resourceVersion.
 */
public final class StaleRestart {

  private final FakeCluster cluster;
  private final String staleKind;
  private final Consumer<String> log;
  private final BiPredicate<Duration, Duration> quiet;
  private boolean prepared;
  /** Whether the fresh instance is a controller process (told apart by its User-Agent). */
  private boolean process;
  private boolean watched;
  private String resourceVersion;
  private FaultRule list;
  private HeldDelivery hold;
  private boolean released;
  /** The thread that starts the fresh instance, while it does; its LISTs of the stale kind are served stale. */
  private volatile Thread starter;

  /**
   * @param cluster the test's cluster
   * @param staleKind the kind the fresh instance lists stale (the point's)
   * @param log where the injection lines go
   * @param quiet waits (at most the second duration) until the controllers are quiet for the first one
   */
  public StaleRestart(FakeCluster cluster, String staleKind, Consumer<String> log, BiPredicate<Duration, Duration> quiet) {
    this.cluster = cluster;
    this.staleKind = staleKind;
    this.log = log;
    this.quiet = quiet;
  }

  /**
   * Installs the stale list and the hold for the stale kind, if {@code fresh} watches it. Call it on the thread that
   * then starts {@code fresh}, right before it does. A ctk controller's LISTs are told by that thread (at most one
   * per informer of the kind); a controller process's by its {@code User-Agent} (every LIST of the kind it sends
   * until it started; whether it watches the kind shows only then).
   *
   * @param fresh the instance about to start
   * @param resourceVersion the store's resourceVersion when the first controller started
   */
  public synchronized void prepare(ControllerInstance fresh, String resourceVersion) {
    prepared = true;
    int informers = Integer.MAX_VALUE;
    if (fresh.controller() != null) {
      informers = 0;
      for (SharedIndexInformer<?> informer : fresh.controller().informers()) {
        if (PerturbationTracker.kindOf(informer).filter(staleKind::equals).isPresent()) {
          informers++;
        }
      }
    }
    process = fresh.isProcess();
    watched = informers > 0;
    if (released || !watched || resourceVersion == null) {
      return;
    }
    this.resourceVersion = resourceVersion;
    Thread thread = Thread.currentThread();
    starter = thread;
    String userAgent = fresh.userAgent();
    Predicate<ApiRequestRecord> sentByFresh = fresh.isProcess()
        ? request -> starter != null && userAgent.equals(request.client())
        : request -> Thread.currentThread() == starter;
    var rule = cluster.faults().when(RequestPattern.list(staleKind).where("sent while the fresh instance of \""
        + fresh.name() + "\" starts (perturbation tracker)", sentByFresh));
    list = (fresh.isProcess() ? rule : rule.times(informers)).answer(ApiFault.staleRead(resourceVersion));
    hold = cluster.watchFaults().holdAfter(WatchPattern.kind(staleKind), 0);
  }

  /**
   * What the injection line says of the fresh instance's start, once it {@link #started()}.
   *
   * @return e.g. {@code "which listed ConfigMap as of resourceVersion 4 (the controller's first start), its
   *     ConfigMap watches held"}, or {@code null} when nothing was installed
   */
  public synchronized String note() {
    if (hold == null) {
      return null;
    }
    if (list.fired() == 0) {
      return "its " + staleKind + " watches held, but it sent no LIST of " + staleKind + " as it started (the "
          + "stale list was never served)";
    }
    return "which listed " + staleKind + " as of resourceVersion " + resourceVersion
        + " (the controller's first start), its " + staleKind + " watches held";
  }

  /** The fresh instance started (or failed to): its later LISTs, and everyone else's, are served fresh. */
  public synchronized void started() {
    starter = null;
    if (list != null) {
      list.remove();
    }
  }

  /** After the fresh instance started: waits until the controllers are idle (at most 2 s), then releases. */
  public void releaseWhenQuiet() {
    boolean idle = quiet.test(WatchPoint.STALE_QUIET, WatchPoint.HOLD_BOUND);
    release(idle ? "after the restarted controller was idle for " + WatchPoint.STALE_QUIET.toMillis() + " ms"
        : "after " + WatchPoint.HOLD_BOUND.toSeconds() + " s (the controllers were still busy)");
  }

  /**
   * Removes the stale list and releases the hold, once.
   *
   * @param why how the log line ends
   */
  public synchronized void release(String why) {
    if (released) {
      return;
    }
    released = true;
    starter = null;
    if (list != null) {
      list.remove();
    }
    if (hold != null) {
      int sent = hold.release();
      log.accept(PerturbationTracker.now() + " released " + sent + " held " + staleKind + " watch event"
          + (sent == 1 ? "" : "s") + " in order " + why);
    }
  }

  /** Whether the fresh instance was served at least one stale LIST. */
  public boolean fired() {
    return notFiredReason() == null;
  }

  /**
   * Why the stale view did not take effect, or {@code null} when it did.
   *
   * @return e.g. {@code "the fresh instance does not watch Secret"}
   */
  public synchronized String notFiredReason() {
    if (!prepared) {
      return "the fresh instance never started (the restart failed or the test ended first)";
    }
    if (!watched) {
      return "the fresh instance does not watch " + staleKind;
    }
    if (list == null) {
      return "the stale list was never installed (the test ended first)";
    }
    List<FaultFiring> firings = list.firings();
    if (firings.isEmpty()) {
      return process ? "the fresh instance sent no LIST of " + staleKind + " as it started (it does not watch "
          + staleKind + ")" : "the stale list was never served";
    }
    Set<Long> sequences = firings.stream().map(FaultFiring::sequence).collect(Collectors.toSet());
    List<Integer> codes = cluster.requests().entries().stream().filter(r -> sequences.contains(r.sequence()))
        .map(ApiRequestRecord::code).toList();
    if (codes.isEmpty() || codes.contains(200)) {
      return null;   // served (the journal may have dropped the entries: a firing of staleRead is a served read)
    }
    return "the stale list was never served: the LIST of " + staleKind + " as of resourceVersion "
        + resourceVersion + " was answered " + codes.get(0);
  }
}
