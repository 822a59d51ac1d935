package dev.ctk.harness.internal.perturb;

import dev.ctk.assertions.internal.EarlyStop;
import dev.ctk.controller.Controller;
import dev.ctk.controller.ControllerView;
import dev.ctk.fake.ApiFault;
import dev.ctk.fake.ClientTransport;
import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.FaultRule;
import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.fake.values.RequestPattern;
import dev.ctk.harness.internal.ControllerWrite;
import dev.ctk.harness.internal.Quiescence;
import dev.ctk.harness.internal.ReconcileThreads.Instance;
import dev.ctk.harness.internal.ReconcileThreads;
import dev.ctk.harness.values.ControllerInstance;
import dev.ctk.harness.values.HarnessControllers;
import dev.ctk.harness.values.Perturbation;
import dev.ctk.harness.values.Restartable;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Traces one run of a test for perturbation testing, and injects one perturbation into it. Attached to the test's
 * fake cluster and harness before the test body starts its controllers: it adds a reconcile listener to every
 * controller the harness starts ({@link ReconcileThreads}) and one fault rule whose {@code where(..)} predicate sees
 * every API request on the thread that sent it. A write sent from inside a reconcile is a {@link ControllerWrite},
 * numbered from 1 in the order the server received them.
 *
 * <p>Without a point (the reference run) it only numbers writes. With a point it injects it when the run reaches it:
 * a crash at write n ({@link CrashPoint}), a stale view or unobserved states from watch event n of a kind ({@link
 * WatchPoint}), and logs what it did in {@link #injections()}. {@link #fired()} says whether the point was reached
 * <em>and</em> took effect (a crash happened; a reconcile ran on the stale view; the fresh instance was served a
 * stale list; something was coalesced away), {@link #notFiredReason()} why not.
 *
 * <p>Threads: a watch point runs a thread {@code ctk-perturb-watch} from the end of {@link #attach} until its hold
 * is released, a crash point a thread {@code ctk-perturb-restart} for its restart; {@link #close()} waits for both
 * (bounded), so none outlives the tracker unless it had to be abandoned (then an injection line says so).
 *
 * <p>Controller processes of other frameworks ({@code harness.startProcess}, ctk-josdk's {@code RestartableOperator},
 * ctk-client-java's {@code ClientJavaProbe.startRestartable}) are told apart by the {@code User-Agent} of the client
 * each instance was given, not by threads: every write their client sends is a controller write, whatever thread or
 * transport sent it.
 *
 * <p>Limits: only the in-process transport decides fault rules on the sending thread, so over HTTP a ctk controller's
 * writes could not be attributed and {@link #attach} refuses such a cluster; requests a ctk controller's reconciler
 * sends from threads of its own are not attributed; a test that clears every fault rule ({@code faults().clear()}) also removes the tracker's rule, and
 * writes are then no longer numbered.
 */
public final class PerturbationTracker implements AutoCloseable {

  /** How long controllers must stay quiet for {@link #settle}. */
  public static final Duration QUIET = Duration.ofMillis(200);

  /** How long {@link #close()} waits for a restart under way. */
  private static final Duration RESTART_WAIT = Duration.ofSeconds(30);

  /** How long {@link #close()} waits for the watch point's thread once its hold is released. */
  private static final Duration WATCH_STOP_WAIT = Duration.ofSeconds(10);

  private final FakeCluster cluster;
  private final HarnessControllers harness;
  private final PerturbationPoint point;
  private final ReconcileThreads threads = new ReconcileThreads();
  private final List<ControllerWrite> writes = new ArrayList<>();
  /** Who sent each request a crash refused, by journal sequence. */
  private final Map<Long, String> refused = new ConcurrentHashMap<>();
  private final List<String> injections = new CopyOnWriteArrayList<>();
  private final List<Controller> instrumented = new CopyOnWriteArrayList<>();
  private final List<Controller> restartableInstances = new CopyOnWriteArrayList<>();
  /** The instances of controller processes seen so far, by User-Agent. */
  private final Map<String, Instance> processes = new ConcurrentHashMap<>();
  private final CrashPoint crash;
  private final StaleRestart stale;
  private final WatchPoint watch;
  private volatile FaultRule rule;
  private volatile boolean closed;
  /** The journal's last sequence when the tracker attached: watches opened after it are the run's. */
  private final long journalMark;
  /** The store's resourceVersion when the first controller started: what a stale restart's lists show. */
  private volatile String firstStart;

  private PerturbationTracker(FakeCluster cluster, HarnessControllers harness, PerturbationPoint point) {
    this.cluster = cluster;
    this.harness = harness;
    this.point = point;
    this.journalMark = cluster.requests().lastSequence();
    boolean crashes = point != null
        && (point.kind() == Perturbation.CRASH_RESTART || point.kind() == Perturbation.STALE_RESTART);
    this.stale = point != null && point.kind() == Perturbation.STALE_RESTART
        ? new StaleRestart(cluster, point.watchedKind(), injections::add, this::controllersQuiet) : null;
    this.crash = crashes ? new CrashPoint(point, injections::add, () -> firstStart, stale, this::served) : null;
    this.watch = point != null && !crashes
        ? new WatchPoint(cluster, point, injections::add, this::controllersQuiet, this::observedViews,
            this::isControllers) : null;
  }

  /** Hooks into the harness and the cluster; the watch point (its hold and its thread) last, once all else is. */
  private void arm() {
    harness.onStart(this::instrument);
    rule = cluster.faults()
        .when(RequestPattern.any().where("sent from inside a reconcile (perturbation tracker)", this::decide))
        .answer(ApiFault.dropConnection());
    if (watch != null) {
      watch.start();
    }
  }

  /**
   * Attaches a tracker; call it before the test body starts its controllers.
   *
   * @param cluster the test's fake cluster
   * @param harness the test's harness, on that cluster
   * @param point the perturbation to inject, or {@code null} for the reference run (numbers writes, injects nothing)
   * @return the tracker; close it after the test
   * @throws IllegalStateException if the cluster's clients use the HTTP transport
   */
  public static PerturbationTracker attach(FakeCluster cluster, HarnessControllers harness, PerturbationPoint point) {
    Objects.requireNonNull(cluster, "PerturbationTracker.attach: cluster is null");
    Objects.requireNonNull(harness, "PerturbationTracker.attach: harness is null");
    if (cluster.clientTransport() == ClientTransport.HTTP) {
      throw new IllegalStateException("Perturbation testing needs the fake cluster's in-process transport: it "
          + "tells a controller's writes apart by the thread that sends them, and over HTTP requests are served on "
          + "the server's threads. This cluster was built with ClientTransport.HTTP. Fix: build it with the default "
          + "transport (ClientTransport.IN_PROCESS).");
    }
    PerturbationTracker tracker = new PerturbationTracker(cluster, harness, point);
    try {
      tracker.arm();
    } catch (RuntimeException | Error e) {
      tracker.close();
      throw e;
    }
    return tracker;
  }

  /**
   * The writes sent from inside reconciles of the harness's controllers, numbered from 1, in order.
   *
   * @return a copy
   */
  public List<ControllerWrite> controllerWrites() {
    synchronized (writes) {
      return List.copyOf(writes);
    }
  }

  /**
   * What the point did, one line each, {@code "HH:mm:ss.SSS <what>"}, e.g. {@code 12:00:01.102 crashed controller
   * "nginx-service" right after write #2 (create Service default/web); restarted as instance 2}.
   *
   * @return a copy
   */
  public List<String> injections() {
    return List.copyOf(injections);
  }

  /**
   * Whether the point was reached and took effect: the instance crashed (CRASH_RESTART); it crashed and its fresh
   * instance was served at least one stale LIST (STALE_RESTART); a reconcile of a harness controller started while
   * the hold held an event back (STALE_VIEW); the coalesced release sent fewer events than were held
   * (UNOBSERVED_STATES).
   *
   * @return {@code false} for the reference run, when the run never got to the point, and when it had no effect
   */
  public boolean fired() {
    return notFiredReason() == null;
  }

  /**
   * Why the point did not take effect, for the report: {@code null} when {@link #fired()}. It completes {@code "not
   * reached: <reason>"} or reads on its own.
   *
   * @return e.g. {@code "the run never got to write #3"}, {@code "write #2 came from controller \"x\", started
   *     without a factory (harness.start(Controller))"}, {@code "no reconcile ran while the view was stale"}
   */
  public String notFiredReason() {
    if (point == null) {
      return "this is the reference run: it has no perturbation point";
    }
    if (crash != null) {
      String reason = crash.notFiredReason();
      return reason != null || stale == null ? reason : stale.notFiredReason();
    }
    return watch.notFiredReason();
  }

  /**
   * Releases whatever the point still holds, then waits until every controller of the harness is idle (work queue
   * empty, nothing in flight, no restart under way) for 200 ms.
   *
   * @param bound the longest wait
   * @return {@code true} if they were idle within {@code bound}; {@code false}: a hot loop, or a stuck controller
   */
  public boolean settle(Duration bound) {
    EarlyStop.disarm();
    releaseHolds("when the test ended");
    return new Quiescence(harness::views, () -> crash != null && crash.busy()).await(QUIET, bound);
  }

  /** Whether the controllers are quiet for {@code quiet}, waiting at most {@code bound} (restarts not counted). */
  private boolean controllersQuiet(Duration quiet, Duration bound) {
    return new Quiescence(harness::views, () -> false).await(quiet, bound);
  }

  private void releaseHolds(String why) {
    if (watch != null) {
      watch.release(why);
    }
    if (stale != null) {
      stale.release(why);
    }
  }

  /**
   * Lets the test's waits (its Awaitility {@code await()}s and ctk's {@code within(..)} assertions) on the calling
   * thread stop as soon as nothing can change any more ({@link RunVerdict}); until {@link #settle} or {@link
   * #close()}. Call it on the test's thread, for a perturbed run.
   */
  public void stopWaitsEarly() {
    RunVerdict verdict = new RunVerdict(cluster, harness::views, () -> crash != null && crash.busy(), watch);
    EarlyStop.arm(() -> closed ? null : verdict.verdict());
  }

  /**
   * The kinds the informers of the harness's controllers watch (every instance, restarted ones included), e.g.
   * {@code Deployment}. When the harness also observes views of controllers it did not start (a Java Operator SDK
   * {@code OperatorProbe}, a {@code ClientJavaProbe}, a {@code ControllerProbe} of a hand-written loop), their
   * informers are not known by type: then every kind the run opened a watch on since the tracker attached counts too.
   *
   * @return a sorted copy
   */
  public Set<String> watchedKinds() {
    List<Controller> controllers = new ArrayList<>(instrumented);
    controllers.addAll(harness.controllers());
    Set<String> kinds = kindsOf(controllers);
    if (!observedViews().isEmpty()) {
      for (ApiRequestRecord request : cluster.requests().since(journalMark)) {
        if ("watch".equals(request.verb()) && request.kind() != null && !request.injected()) {
          kinds.add(request.kind());
        }
      }
    }
    return kinds;
  }

  /**
   * Who sent each request the crash point refused (a crashed instance's), by journal sequence, e.g. {@code
   * controller "copier" instance 1}.
   *
   * @return a copy
   */
  public Map<Long, String> refusedRequests() {
    return Map.copyOf(refused);
  }

  /** Whether a request was a controller's: numbered as a controller write, or refused by a crash. */
  private boolean isControllers(ApiRequestRecord request) {
    if (refused.containsKey(request.sequence())) {
      return true;
    }
    synchronized (writes) {
      return writes.stream().anyMatch(w -> w.journalSequence() == request.sequence());
    }
  }

  /** The views the harness observes that are not controllers it started: other frameworks', hand-written loops'. */
  public List<ControllerView> observedViews() {
    List<ControllerView> observed = new ArrayList<>(harness.views());
    observed.removeAll(harness.controllers());
    observed.removeAll(instrumented);
    return observed;
  }

  /**
   * The kinds the informers of the harness's restartable controllers watch (their current instances and every
   * instance this tracker saw start): the kinds a stale restart can list stale.
   *
   * @return a sorted copy
   */
  public Set<String> restartableKinds() {
    List<Controller> controllers = new ArrayList<>();
    boolean processes = false;
    for (Restartable restartable : harness.restartables()) {
      restartable.currentController().ifPresent(controllers::add);
      processes |= restartable.currentController().isEmpty();
    }
    controllers.addAll(restartableInstances);
    Set<String> kinds = kindsOf(controllers);
    if (processes) {
      // a controller process's informers are not known by type: the kinds its instances opened watches on
      for (ApiRequestRecord request : cluster.requests().since(journalMark)) {
        if ("watch".equals(request.verb()) && request.kind() != null
            && harness.processInstance(request.client()).isPresent()) {
          kinds.add(request.kind());
        }
      }
    }
    return kinds;
  }

  private static Set<String> kindsOf(List<Controller> controllers) {
    Set<String> kinds = new TreeSet<>();
    for (Controller controller : controllers) {
      for (SharedIndexInformer<?> informer : controller.informers()) {
        kindOf(informer).ifPresent(kinds::add);
      }
    }
    return kinds;
  }

  /**
   * Whether a controller of the harness was started from a factory, so crash points can restart it.
   *
   * @return {@code true} if a {@link dev.ctk.harness.RestartableController} was started
   */
  public boolean hasFactory() {
    return !harness.restartables().isEmpty();
  }

  /**
   * Removes the fault rule, releases what is held, waits (at most 30 s) for a restart under way and (at most 10 s)
   * for the watch point's thread; a restart still under way then is abandoned, with an injection line.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    EarlyStop.disarm();
    FaultRule installed = rule;
    if (installed != null) {
      installed.remove();
    }
    releaseHolds("when the tracker closed");
    if (crash != null) {
      crash.close(RESTART_WAIT);
    }
    if (watch != null && !watch.stop(WATCH_STOP_WAIT)) {
      injections.add(now() + " the ctk-perturb-watch thread was still running " + WATCH_STOP_WAIT.toSeconds()
          + " s after the tracker closed (interrupted)");
    }
  }

  /** The start hook: marks the reconciles of every instance the harness starts. */
  private void instrument(Controller controller) {
    if (closed) {
      return;
    }
    if (firstStart == null) {
      firstStart = cluster.resourceVersion();
    }
    Restartable restartable = harness.restartableOf(controller).orElse(null);
    int number = restartable == null ? 1 : restartable.instance();
    threads.track(controller, number, restartable, this::onReconcileStart, this::onReconcileEnd);
    instrumented.add(controller);
    if (restartable != null) {
      restartableInstances.add(controller);
    }
  }

  private void onReconcileStart(Instance instance) {
    if (watch != null && !closed) {
      watch.onReconcileStart();
    }
  }

  private void onReconcileEnd(Instance instance) {
    if (crash != null && !closed) {
      crash.onReconcileEnd(instance);
    }
  }

  /**
   * The fault rule's predicate, on the thread that sent the request: numbers controller writes and decides whether
   * the point refuses this request.
   */
  private boolean decide(ApiRequestRecord request) {
    Instance instance = threads.current();
    if (instance == null) {
      instance = processInstance(request.client());
    }
    if (instance == null || closed) {
      return false;
    }
    if (crash != null && crash.refuses(instance)) {
      refused.put(request.sequence(), "controller \"" + instance.name() + "\" instance " + instance.number());
      return true;
    }
    if (!request.isWrite()) {
      return false;
    }
    ControllerWrite write;
    synchronized (writes) {
      write = new ControllerWrite(writes.size() + 1, instance.name(), instance.number(), request.verb(),
          request.kind() == null ? request.resource() : request.kind(), request.namespace(), request.name(),
          request.sequence());
      writes.add(write);
    }
    return crash != null && crash.onWrite(write, instance);
  }

  /**
   * The instance of a controller process that sent a request, told by its User-Agent; one {@link Instance} per
   * process instance, so that its crash state holds for all its requests.
   */
  private Instance processInstance(String userAgent) {
    if (userAgent == null || !userAgent.startsWith("ctk-process/")) {
      return null;
    }
    Instance known = processes.get(userAgent);
    if (known != null) {
      return known;
    }
    Optional<ControllerInstance> sender = harness.processInstance(userAgent);
    if (sender.isEmpty()) {
      return null;
    }
    Restartable restartable = harness.restartables().stream()
        .filter(r -> r.currentController().isEmpty() && r.name().equals(sender.get().name())).findFirst()
        .orElse(null);
    if (restartable == null) {
      return null;
    }
    if (firstStart == null) {
      firstStart = cluster.resourceVersion();
    }
    return processes.computeIfAbsent(userAgent, ua -> new Instance(sender.get().name(), sender.get().number(),
        restartable));
  }

  /** Whether the request of a journal sequence was answered. */
  private boolean served(long sequence) {
    return cluster.requests().since(sequence - 1).stream().anyMatch(r -> r.sequence() == sequence);
  }

  /** The kind an informer watches, when it can be told. */
  public static Optional<String> kindOf(SharedIndexInformer<?> informer) {
    Class<?> type = informer.getApiTypeClass();
    if (type != null && HasMetadata.class.isAssignableFrom(type) && type != GenericKubernetesResource.class) {
      @SuppressWarnings("unchecked")
      Class<? extends HasMetadata> typed = (Class<? extends HasMetadata>) type;
      return Optional.of(HasMetadata.getKind(typed));
    }
    // a generic informer: the kind of what it cached, if anything
    return informer.getStore().list().stream().filter(HasMetadata.class::isInstance)
        .map(o -> ((HasMetadata) o).getKind()).filter(Objects::nonNull).findFirst();
  }

  /** Now, as injection lines start. */
  public static String now() {
    return time(Instant.now());
  }

  /** An instant as injection lines start: {@code HH:mm:ss.SSS}, local time. */
  public static String time(Instant instant) {
    return PerturbationTimeline.time(instant);
  }
}
