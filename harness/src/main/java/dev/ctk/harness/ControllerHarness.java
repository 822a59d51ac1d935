package dev.ctk.harness;

import dev.ctk.assertions.internal.Polling;
import dev.ctk.assertions.internal.ReconcileWindows;
import dev.ctk.assertions.internal.StateFormat;
import dev.ctk.controller.CacheState;
import dev.ctk.controller.Controller;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.TimeSource;
import dev.ctk.controller.VirtualTime;
import dev.ctk.controller.internal.ThrowableText;
import dev.ctk.envtest.ApiServer;
import dev.ctk.fake.ClientTransport;
import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.RequestJournal;
import dev.ctk.harness.values.ControllerInstance;
import dev.ctk.harness.values.HarnessControllers;
import dev.ctk.harness.values.Mode;
import dev.ctk.harness.values.Restartable;
import dev.ctk.harness.values.TestCluster;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Starts controllers for a test and closes them after it. Inject it as a parameter of a test or
 * lifecycle method of a {@code @ControllerTest} class.
 *
 * <p>{@link #start(Controller)} registers a controller and starts it (which waits for its informer
 * caches to sync), then waits (at most 30s) until every informer's watch is open; after the test
 * the extension closes the registered controllers in reverse order, before the cluster
 * closes, so no controller thread outlives its test and no reconcile still running at the end of the
 * test finds its client closed. When the test fails, the extension reports each registered
 * controller's state (work queue, reconcile counts, the last reconcile of each key) as a JUnit report
 * entry and on standard error.
 *
 * <p>{@link #start(Supplier)} starts a controller from a factory instead, as a {@link RestartableController} that a
 * test (or a {@code @Perturbed} run) can crash-restart: a fresh instance from the factory replaces the
 * running one, and the view follows it.
 *
 * <p>Controllers that another framework runs take part through their {@link ControllerView}: {@link
 * #observe(ControllerView)} adds the view (a {@code ControllerProbe}, a Java Operator SDK or
 * Kubernetes Java client controller's view) to the failure report, and {@link
 * #closeAfterTest(AutoCloseable)} closes what runs them (an {@code Operator}, a controller manager, a
 * hand-written controller) together with the started controllers, in reverse registration order,
 * before the cluster:
 *
 * <pre>{@code
 * ControllerProbe probe = harness.observe(ControllerProbe.create("config-syncer"));
 * ConfigSyncer syncer = harness.closeAfterTest(new ConfigSyncer(client, probe));
 * }</pre>
 *
 * <p>Which harness you get depends on where it is injected:
 *
 * <ul>
 *   <li>a test method, {@code @BeforeEach} or {@code @AfterEach}: the harness of that test; its
 *       controllers are closed after that test;
 *   <li>with {@code isolation = PER_CLASS}, {@code @BeforeAll} (or a {@code PER_CLASS} test-instance
 *       constructor) of a class: the harness of that class; its controllers run for every test of
 *       that class and of its {@code @Nested} classes, and are closed when that class ends. A
 *       {@code @Nested} class has a harness of its own: controllers started in its {@code @BeforeAll}
 *       stop when it ends, and never run on into its sibling classes.
 * </ul>
 *
 * <p>{@link #controllers()} lists the controllers of the harness and of the harnesses enclosing it
 * (the test's, its class's, the enclosing classes'), and {@link #views()} those controllers and the
 * observed views, so the failure report of a test covers every controller running during it. The report also names the {@link #mode() mode}, the {@link
 * #serverDescription() server} and the {@link #namespace() namespace}.
 *
 * <p>The harness tells a test where it runs, so that one body serves every mode: {@link
 * #namespace()} is {@code default} in fake mode and the test's own fresh namespace on a real server.
 * It also hands out the test's {@link #time() time source} (a {@link VirtualTime} with
 * {@code @ControllerTest(virtualTime = true)}) and, in fake mode, the {@link #requests() request journal}
 * that ctk's convergence assertions read. Controllers started here are watched by those assertions:
 * the real start and end of each reconcile is recorded, so that a write can be told apart as the
 * controller's own (received while one of its reconciles ran) or an outside change.
 *
 * <pre>{@code
 * @Test
 * void labels_replica_sets(KubernetesClient client, ControllerHarness harness) {
 *   Controller controller = harness.start(ReplicaSetLabeller.create(client));
 *   client.apps().replicaSets().resource(replicaSet("web")).create();   // client's namespace
 *   assertThat(controller).within(ofSeconds(5))
 *       .hasReconciledSuccessfully(harness.namespace() + "/web");
 * }   // the controller is closed here, then the cluster (or the namespace)
 * }</pre>
 *
 * @since 0.1.0
 */
public final class ControllerHarness implements HarnessControllers {

  /** How long {@link #start(Controller)} waits, after the caches synced, for the watches to open. */
  private static final Duration WATCH_TIMEOUT = Duration.ofSeconds(30);

  private final TestCluster cluster;
  private final ControllerHarness parent;
  private final List<Controller> controllers = new ArrayList<>();
  private final List<ControllerView> views = new ArrayList<>();
  private final List<Restartable> restartables = new ArrayList<>();
  /** What {@link #close()} closes, in registration order: started controllers and resources. */
  private final List<Registration> closeables = new ArrayList<>();
  /** Called with each controller {@link #start} is given, before it starts (the failure timeline attaches here). */
  private final List<java.util.function.Consumer<Controller>> startHooks =
      new java.util.concurrent.CopyOnWriteArrayList<>();
  private int resources;
  private boolean closed;

  ControllerHarness(TestCluster cluster, ControllerHarness parent) {
    this.cluster = cluster;
    this.parent = parent;
    // real start and end times of every reconcile, for the convergence assertions' "own writes"
    startHooks.add(ReconcileWindows::track);
  }

  /**
   * Starts a controller, waits until every informer it watches has an open watch, and closes it
   * after the test (after the class, for a class harness). The controller is registered before it
   * starts, so it is closed even if it fails to start.
   *
   * <p>fabric8 reports an informer as synced once its first list is stored, before its watch is open.
   * Waiting for the watch means that a controller returned by this method sees every later change,
   * and that closing it right away does not leave a half-opened watch behind.
   *
   * <p>The harness closes only what it started: a controller that is already running (started by
   * the test itself, or by the harness of an enclosing class with per-class isolation) is refused
   * before anything is registered, and left running for whoever owns it.
   *
   * @param controller a controller that was not started yet
   * @return the same controller, started, with synced caches and open watches
   * @throws IllegalStateException if the test this harness belongs to is over, the controller was
   *     already started (by this harness, an enclosing one, or outside any), or a watch did not open
   *     within 30s
   * @throws dev.ctk.controller.CacheSyncTimeoutException if its caches did not sync in time
   */
  public Controller start(Controller controller) {
    Objects.requireNonNull(controller, "ControllerHarness.start: the controller is null");
    register(controller, controller, "controller \"" + controller.name() + "\"");
    launch(controller);
    return controller;
  }

  /**
   * Starts a controller built by {@code factory} as {@link #start(Controller)} does, and returns it as a {@link
   * RestartableController}: a view that always shows the current instance, and that {@link
   * RestartableController#restart() restarts} by closing that instance and starting a fresh one from the factory.
   * Perturbation runs ({@code @Perturbed}) crash-restart only controllers started this way. After the test
   * the harness closes the current instance.
   *
   * <pre>{@code
   * RestartableController controller = harness.start(() -> NginxServiceController.create(client));
   * assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/web");
   * }</pre>
   *
   * @param factory builds a new, not started controller on each call
   * @return the restartable controller, its instance 1 started, with synced caches and open watches
   * @throws IllegalStateException if the test this harness belongs to is over, the factory returned null or a
   *     controller that is already started, or a watch did not open within 30s
   * @throws dev.ctk.controller.CacheSyncTimeoutException if its caches did not sync in time
   * @since 0.1.0
   */
  public RestartableController start(Supplier<Controller> factory) {
    Objects.requireNonNull(factory, "ControllerHarness.start: the controller factory is null");
    synchronized (this) {
      requireOpen("start a controller from a factory");
    }
    RestartableController restartable = new RestartableController(this, factory);
    Controller first = restartable.first();
    register(first, restartable::shutDown, "controller \"" + first.name() + "\" (restartable)");
    synchronized (this) {
      restartables.add(restartable);
    }
    launch(first);
    return restartable;
  }

  /**
   * Starts a controller of another framework from a factory, so that it can be crash-restarted as a {@link
   * RestartableController} is: a Java Operator SDK {@code Operator} (ctk-josdk's {@code RestartableOperator} wraps
   * this), a Kubernetes Java client controller ({@code ClientJavaProbe.startRestartable}), a hand-written loop. The
   * factory is called for each instance with a client of that instance only, whose requests carry a {@code
   * User-Agent} naming it, and must return the process running. Perturbation runs ({@code @Perturbed}) crash it at a
   * controller write and restart it; its views show in failure reports. After the test the harness stops the current
   * instance and closes its client.
   *
   * <pre>{@code
   * RestartableProcess syncer = harness.startProcess("config-syncer", instance -> {
   *   ControllerProbe probe = ControllerProbe.create("config-syncer");
   *   ConfigSyncer loop = ConfigSyncer.start(instance.client(), probe);
   *   return ControllerProcess.of(List.of(probe), loop::stop);
   * });
   * }</pre>
   *
   * @param name the process's name, distinct among the test's processes
   * @param factory starts a fresh instance on each call
   * @return the process, its instance 1 running
   * @throws IllegalStateException if the test is over, the name is taken, or the factory failed
   * @since 0.1.0
   */
  public RestartableProcess startProcess(String name, RestartableProcess.Factory factory) {
    Objects.requireNonNull(name, "ControllerHarness.startProcess: the name is null");
    Objects.requireNonNull(factory, "ControllerHarness.startProcess: the factory is null");
    RestartableProcess process = new RestartableProcess(this, name, factory);
    synchronized (this) {
      requireOpen("start controller process \"" + name + "\"");
      if (restartables().stream().anyMatch(r -> r instanceof RestartableProcess && r.name().equals(name))) {
        throw new IllegalStateException("A controller process named \"" + name + "\" was already started for "
            + "this test. Give each process its own name.");
      }
      restartables.add(process);
      closeables.add(new Registration(process::shutDown, "controller process \"" + name + "\""));
    }
    process.first();
    synchronized (this) {
      for (ControllerView view : process.controllers()) {
        views.add(view);
      }
    }
    return process;
  }

  /** A client of the test's cluster whose requests carry {@code userAgent}: one process instance's. */
  KubernetesClient clientFor(String userAgent) {
    KubernetesClient shared = cluster.client();
    Config config = new ConfigBuilder(shared.getConfiguration()).withUserAgent(userAgent).build();
    KubernetesClientBuilder builder = new KubernetesClientBuilder().withConfig(config)
        .withKubernetesSerialization(shared.getKubernetesSerialization());
    cluster.fakeCluster().filter(fake -> fake.clientTransport() == ClientTransport.IN_PROCESS)
        .ifPresent(fake -> builder.withHttpClientFactory(fake.httpClientFactory()));
    return builder.build();
  }

  /**
   * Registers a controller before it starts, so that it is closed even if it fails to start; refuses,
   * registering nothing, one that another harness or the test itself started (it is theirs to close).
   *
   * @param controller the instance to list in {@link #controllers()} and {@link #views()}
   * @param closer what {@link #close()} closes for it (the controller, or its restartable's current instance)
   * @param description how a failure to close it names it
   */
  private void register(Controller controller, AutoCloseable closer, String description) {
    synchronized (this) {
      requireOpen("start controller \"" + controller.name() + "\"");
      if (controllers.contains(controller)) {
        throw new IllegalStateException("Controller \"" + controller.name()
            + "\" was already started by this harness. Start each controller once.");
      }
      if (parent != null && parent.controllers().contains(controller)) {
        throw new IllegalStateException("Controller \"" + controller.name() + "\" was already started by "
            + "the harness of an enclosing class (or enclosing TestScope), which owns it and closes it when "
            + "that class ends; this harness neither starts nor closes it. Fix: use the running controller as "
            + "it is (it runs during this test, and this test's failure report shows it), or start a new "
            + "controller here.");
      }
      if (controller.isRunning() || controller.workerError().isPresent()) {
        throw new IllegalStateException("Controller \"" + controller.name() + "\" "
            + (controller.isRunning() ? "is already running, started outside this harness; "
                : "was already started outside this harness (a worker thread of it has died since); ")
            + "ControllerHarness.start(controller) starts a controller that was not started yet and closes "
            + "it after the test, so it refuses one it does not own. Fix: pass a new controller, or keep "
            + "this one: show it in the failure report with harness.observe(controller) and close it with "
            + "harness.closeAfterTest(controller).");
      }
      controllers.add(controller);
      if (!views.contains(controller)) {
        views.add(controller);
      }
      closeables.add(new Registration(closer, description));
    }
  }

  /** Runs the start hooks, starts the controller and waits for its watches. */
  void launch(Controller controller) {
    startHooks.forEach(hook -> hook.accept(controller));
    controller.start();
    awaitWatches(controller);
  }

  /**
   * A restart replaced {@code old} by {@code fresh}: {@link #controllers()} and {@link #views()} list the fresh
   * instance in the old one's place (the failure report shows the instance that runs).
   *
   * @return {@code false}, changing nothing, if the test this harness belongs to is over (it is closing)
   */
  synchronized boolean replace(Controller old, Controller fresh) {
    if (closed) {
      return false;
    }
    int index = controllers.indexOf(old);
    if (index >= 0) {
      controllers.set(index, fresh);
    }
    int view = views.indexOf(old);
    if (view >= 0) {
      views.set(view, fresh);
    }
    return true;
  }

  /**
   * The restartable controllers and controller processes started through this harness and the harnesses enclosing
   * it, outermost first.
   *
   * @return an immutable list
   */
  @Override
  public List<Restartable> restartables() {
    List<Restartable> all = new ArrayList<>();
    if (parent != null) {
      all.addAll(parent.restartables());
    }
    synchronized (this) {
      all.addAll(restartables);
    }
    return Collections.unmodifiableList(all);
  }

  /**
   * The restartable controller whose current instance is {@code controller}.
   *
   * @param controller an instance
   * @return its restartable, or empty for a controller started with {@link #start(Controller)}
   */
  @Override
  public Optional<RestartableController> restartableOf(Controller controller) {
    return restartables().stream().filter(r -> r instanceof RestartableController)
        .map(RestartableController.class::cast).filter(r -> r.current() == controller).findFirst();
  }

  @Override
  public Optional<ControllerInstance> processInstance(String userAgent) {
    for (Restartable restartable : restartables()) {
      if (restartable instanceof RestartableProcess process) {
        Optional<ControllerInstance> instance = process.instanceSending(userAgent);
        if (instance.isPresent()) {
          return instance;
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Registers a hook called with every controller {@link #start} is given, before it starts.
   *
   * @param hook the hook
   */
  @Override
  public void onStart(java.util.function.Consumer<Controller> hook) {
    startHooks.add(Objects.requireNonNull(hook, "hook"));
  }

  private static void awaitWatches(Controller controller) {
    try {
      Polling.atMost(WATCH_TIMEOUT).until(() -> controller.caches().stream()
          .allMatch(CacheState::watching));
    } catch (ConditionTimeoutException e) {
      String states = controller.caches().stream()
          .map(c -> "  " + c.name() + ": "
              + (c.watching() ? "watching" : c.running() ? "running, watch not open"
                  : "not running"))
          .collect(Collectors.joining("\n"));
      throw new IllegalStateException("Controller \"" + controller.name() + "\" started and its "
          + "caches synced, but not every informer opened its watch within "
          + StateFormat.duration(WATCH_TIMEOUT) + ":\n" + states + "\nFix: check that the API "
          + "server allows watching these kinds, and that no informer was stopped.", e);
    }
  }

  /**
   * The controllers started through this harness and through the harnesses enclosing it (its class's
   * and the enclosing classes', with per-class isolation), outermost first, each in start order.
   *
   * @return an immutable list
   */
  @Override
  public List<Controller> controllers() {
    List<Controller> all = new ArrayList<>();
    if (parent != null) {
      all.addAll(parent.controllers());
    }
    synchronized (this) {
      all.addAll(controllers);
    }
    return Collections.unmodifiableList(all);
  }

  /**
   * Shows a controller that another framework runs (a {@code ControllerProbe}, or a view from
   * ctk-josdk or ctk-client-java) in this test's failure report, next to the controllers this harness
   * started. It neither starts nor stops it: pair it with {@link #closeAfterTest(AutoCloseable)}.
   *
   * <pre>{@code
   * ControllerProbe probe = harness.observe(ControllerProbe.create("config-syncer"));
   * }</pre>
   *
   * @param view the controller's view
   * @param <V> the view's type
   * @return the same view
   * @throws IllegalStateException if the test this harness belongs to is over, or this harness or
   *     one enclosing it already shows the view
   */
  public <V extends ControllerView> V observe(V view) {
    Objects.requireNonNull(view, "ControllerHarness.observe: the view is null");
    String described = view.vocabulary().controller() + " \"" + view.name() + "\"";
    synchronized (this) {
      requireOpen("observe " + described);
      if (parent != null && parent.views().contains(view)) {
        throw new IllegalStateException(capitalized(described) + " is already observed by the "
            + "harness of an enclosing class, whose failure reports cover this test too. Observe "
            + "each controller once.");
      }
      if (views.contains(view)) {
        throw new IllegalStateException(capitalized(described) + " is already observed by this "
            + "harness (observed or started before). Observe each controller once.");
      }
      views.add(view);
    }
    return view;
  }

  /**
   * Closes {@code resource} after the test (after the class, for a class harness), together with the
   * controllers this harness started, in reverse order of registration, before the cluster closes:
   * e.g. a Java Operator SDK {@code Operator} ({@code harness.closeAfterTest(operator::stop)}) or a
   * Kubernetes Java client controller manager.
   *
   * @param resource what to close
   * @param <T> its type
   * @return the same resource
   * @throws IllegalStateException if the test this harness belongs to is over
   */
  public <T extends AutoCloseable> T closeAfterTest(T resource) {
    Objects.requireNonNull(resource, "ControllerHarness.closeAfterTest: the resource is null");
    synchronized (this) {
      String described = "closeAfterTest resource #" + (resources + 1) + " (" + describe(resource)
          + ")";
      requireOpen("register " + described);
      resources++;
      closeables.add(new Registration(resource, described));
    }
    return resource;
  }

  /** A resource as messages show it: its {@code toString()}, or "a lambda". */
  private static String describe(AutoCloseable resource) {
    Class<?> type = resource.getClass();
    return type.isHidden() || type.isSynthetic() ? "a lambda" : String.valueOf(resource);
  }

  private static String capitalized(String text) {
    return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }

  /**
   * Every controller shown in failure reports: those started or {@link #observe observed} through
   * this harness and through the harnesses enclosing it, outermost first, each in registration order.
   *
   * @return an immutable list
   */
  @Override
  public List<ControllerView> views() {
    List<ControllerView> all = new ArrayList<>();
    if (parent != null) {
      all.addAll(parent.views());
    }
    synchronized (this) {
      all.addAll(views);
    }
    return Collections.unmodifiableList(all);
  }

  private void requireOpen(String action) {
    if (closed) {
      throw new IllegalStateException("Cannot " + action + ": the test this ControllerHarness "
          + "belongs to is over and its controllers were closed. Use the harness injected into the "
          + "current test.");
    }
  }

  /**
   * The client of the test (the same as an injected {@code KubernetesClient}); its default namespace
   * is {@link #namespace()}.
   *
   * @return the client; closed with the cluster (fake mode) or the test's namespace (real modes)
   */
  public KubernetesClient client() {
    return cluster.client();
  }

  /**
   * The fake cluster the controllers run against, in fake mode.
   *
   * @return the cluster
   * @throws IllegalStateException in a real mode, where there is no fake cluster
   */
  public FakeCluster cluster() {
    return cluster.fakeCluster().orElseThrow(() -> new IllegalStateException(
        "ControllerHarness.cluster() has no FakeCluster to return: this test runs in "
            + cluster.mode().configName() + " mode, against " + cluster.description()
            + ". Fix: use client() and namespace(), which work in every mode, or run this test "
            + "in fake mode only (@ControllerTest(mode = Mode.FAKE))."));
  }

  /**
   * The time source for the test's controllers: its {@link VirtualTime} with
   * {@code @ControllerTest(virtualTime = true)}, else {@link TimeSource#system()}. Build controllers on it so
   * that one test body runs on either.
   *
   * <pre>{@code
   * Controller controller = harness.start(Controller.builder("renewal")
   *     .withTimeSource(harness.time()) ... .build());
   * }</pre>
   *
   * @return the time source; the same object for the whole scope of the cluster
   */
  public TimeSource time() {
    return cluster.time();
  }

  /**
   * The test's virtual time, to {@link VirtualTime#advance advance}: one per cluster (per test, or per
   * class with per-class isolation). In fake mode the cluster stamps objects with its clock; in a real
   * mode only the controllers built on it follow it, and the server's timestamps stay real.
   *
   * @return the virtual time
   * @throws IllegalStateException if the test runs on real time
   */
  public VirtualTime virtualTime() {
    return cluster.virtualTime().orElseThrow(() -> new IllegalStateException(
        "ControllerHarness.virtualTime() has no VirtualTime to return: this test runs on real "
            + "time (in " + cluster.mode().configName() + " mode, against "
            + cluster.description() + "). Fix: turn virtual time on with "
            + "@ControllerTest(virtualTime = true) or ControllerTestExtension.builder()"
            + ".withVirtualTime(), or use time(), which works on either."));
  }

  /**
   * The fake cluster's request journal: every API request the test's controllers (and the test)
   * made, for ctk's convergence assertions and journal assertions.
   *
   * <pre>{@code
   * assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(harness.requests());
   * }</pre>
   *
   * @return the journal of {@link #cluster()}
   * @throws IllegalStateException in a real mode, where requests are not recorded
   */
  public RequestJournal requests() {
    return cluster.fakeCluster().map(FakeCluster::requests).orElseThrow(() ->
        new IllegalStateException("The request journal needs fake mode: this test runs in "
            + cluster.mode().configName() + " mode against " + cluster.description()
            + "; run this test in fake mode (@ControllerTest(mode = FAKE)) or drop the journal "
            + "assertion."));
  }

  /**
   * The namespace of the test: {@code default} in fake mode; in a real mode a fresh namespace made
   * for this test (or class, with per-class isolation) and deleted after it. The injected client's
   * default namespace, and where {@code @ControllerTest(resources)} were seeded.
   *
   * @return the namespace name
   */
  public String namespace() {
    return cluster.namespace();
  }

  /**
   * The mode this test runs in.
   *
   * @return {@code FAKE}, {@code ENVTEST}, {@code CONTAINER} or {@code EXISTING_CLUSTER}
   */
  public Mode mode() {
    return cluster.mode();
  }

  /**
   * The real API server this test runs against, in a real mode; e.g. to ask whether it {@link
   * ApiServer#runsClusterControllers() runs a garbage collector}.
   *
   * @return the server, or empty in fake mode
   */
  public Optional<ApiServer> apiServer() {
    return cluster.apiServer();
  }

  /**
   * One line naming the server, as failure reports show it: {@code ctk fake API server at
   * http://127.0.0.1:40123}, or the real server's {@link ApiServer#description() description}.
   *
   * @return the description
   */
  public String serverDescription() {
    return cluster.description();
  }

  /**
   * Closes this harness's controllers and {@code closeAfterTest} resources in reverse registration
   * order, each even if an earlier one failed, whatever it threw (an {@link Error} such as a failed
   * assertion too); later starts and registrations fail. A runtime exception or an error is rethrown
   * as it is, a checked exception wrapped with what was being closed; the first failure is thrown,
   * the others added to it as suppressed.
   */
  public void close() {
    List<Registration> toClose;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      toClose = new ArrayList<>(closeables);
    }
    Collections.reverse(toClose);
    Throwable failure = null;
    for (Registration registration : toClose) {
      try {
        registration.resource().close();
      } catch (Throwable e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        Throwable wrapped = e instanceof RuntimeException || e instanceof Error ? e
            : new IllegalStateException("Closing " + registration.description() + " after the "
                + "test failed: " + e.getClass().getName() + ": "
                + ThrowableText.firstLine(e.getMessage()) + ". The other controllers and "
                + "resources of the test were closed; the cause has the whole error, with its "
                + "stack trace. Fix the resource's close(), or close it in the test itself.", e);
        if (failure == null) {
          failure = wrapped;
        } else if (wrapped != failure) {
          failure.addSuppressed(wrapped);
        }
      }
    }
    rethrow(failure);
  }

  /**
   * Throws {@code failure} as it is, if there is one: a runtime exception or an error (what {@link #close()} and
   * {@link TestScope#close()} collect; a checked exception was wrapped before).
   *
   * @param failure the first failure, with the later ones suppressed, or null
   */
  static void rethrow(Throwable failure) {
    if (failure instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (failure instanceof Error error) {
      throw error;
    }
    if (failure != null) {
      throw new IllegalStateException(failure);
    }
  }

  /** Something {@link #close()} closes, and how its failure message names it. */
  private record Registration(AutoCloseable resource, String description) {}
}
