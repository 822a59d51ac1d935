package dev.ctk.harness;

import dev.ctk.controller.CacheState;
import dev.ctk.controller.Controller;
import dev.ctk.controller.ControllerStats;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.controller.Vocabulary;
import dev.ctk.controller.WorkQueueStats;
import dev.ctk.controller.WorkQueueView;
import dev.ctk.harness.values.ControllerInstance;
import dev.ctk.harness.values.ControllerProcess;
import dev.ctk.harness.values.Restartable;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A controller of another framework that a {@link ControllerHarness} started from a factory, so that it can be
 * crash-restarted as a {@link RestartableController} is: {@link #restart()} stops the running instance (a Java
 * Operator SDK {@code Operator}, a Kubernetes Java client controller, a hand-written loop) and closes the client it was
 * given, then calls the factory again with a fresh client. Perturbation runs ({@code @Perturbed}) crash it at a
 * controller write and restart it, as they do ctk's own controllers.
 *
 * <p>Each instance gets its own client ({@link Instance#client()}, or {@link Instance#userAgent()} for a client of
 * another library), whose requests carry a {@code User-Agent} naming the instance. That is how a perturbation run
 * tells this controller's writes apart from the test's, whatever threads the framework sends them from, and how it
 * refuses every request of a crashed instance.
 *
 * <pre>{@code
 * RestartableProcess syncer = harness.startProcess("config-syncer", instance -> {
 *   ControllerProbe probe = ControllerProbe.create("config-syncer");
 *   ConfigSyncer loop = ConfigSyncer.start(instance.client(), probe);
 *   return ControllerProcess.of(List.of(probe), loop::stop);
 * });
 * assertThat(syncer.controller("config-syncer")).within(ofSeconds(5)).isIdle();
 * }</pre>
 *
 * <p>Its {@link #controllers() views} always show the <em>current</em> instance, by name, so assertions written
 * against them keep working across restarts. Thread-safe: restarts are serialized; a restart racing the end of the
 * test leaves nothing running.
 *
 * @since 0.1.0
 */
public final class RestartableProcess implements Restartable {

  private static final Logger LOG = LoggerFactory.getLogger(RestartableProcess.class);
  /** Makes every User-Agent unique in the JVM, when two tests name their processes alike. */
  private static final AtomicLong IDS = new AtomicLong();

  /**
   * Starts one instance of a controller process.
   *
   * @since 0.1.0
   */
  @FunctionalInterface
  public interface Factory {

    /**
     * Builds and starts a fresh instance on the given client and returns it running: informers synced and watches
     * open, so that it sees every change made after this returns.
     *
     * @param instance which instance this is, and the client it must use
     * @return the running process
     * @throws Exception when it cannot start; the harness stops what it returned before and reports it
     */
    ControllerProcess start(Instance instance) throws Exception;
  }

  /**
   * What the factory is given for one instance: its number and a client of its own.
   *
   * @since 0.1.0
   */
  public static final class Instance {

    private final ControllerHarness harness;
    private final String name;
    private final int number;
    private final String userAgent;
    private KubernetesClient client;
    private boolean closed;

    Instance(ControllerHarness harness, String name, int number, String userAgent) {
      this.harness = harness;
      this.name = name;
      this.number = number;
      this.userAgent = userAgent;
    }

    /** The process's name. */
    public String name() {
      return name;
    }

    /** 1 for the first instance, one more after each restart. */
    public int number() {
      return number;
    }

    /**
     * The {@code User-Agent} this instance's requests must carry: set it on a client of another library, e.g.
     * {@code ApiClients.forHarness(harness).setUserAgent(instance.userAgent())}.
     *
     * @return e.g. {@code ctk-process/webapp-operator/2 (#7)}
     */
    public String userAgent() {
      return userAgent;
    }

    /**
     * A fabric8 client of this instance only, on the test's cluster (its default namespace the test's), its
     * requests carrying {@link #userAgent()}; built on the first call, closed after the instance stops.
     *
     * @return the client
     */
    public synchronized KubernetesClient client() {
      if (closed) {
        throw new IllegalStateException("Instance " + number + " of controller process \"" + name + "\" was "
            + "stopped; its client is closed. Use the Instance the factory is given for the running instance.");
      }
      if (client == null) {
        client = harness.clientFor(userAgent);
      }
      return client;
    }

    /** The test's harness (its namespace, its cluster). */
    public ControllerHarness harness() {
      return harness;
    }

    synchronized void closeClient() {
      closed = true;
      if (client != null) {
        client.close();
      }
    }

    @Override
    public String toString() {
      return "instance " + number + " of controller process \"" + name + "\"";
    }
  }

  /** One started instance. */
  private record Running(Instance instance, ControllerProcess process) {}

  private final ControllerHarness harness;
  private final String name;
  private final Factory factory;
  private final long id = IDS.incrementAndGet();
  /** Guards {@link #current}, {@link #number} and {@link #shutDown}. */
  private final Object lock = new Object();
  /** Held for a whole restart, so that two restarts never interleave. */
  private final Object restarting = new Object();
  /** Every instance's User-Agent, crashed ones included. */
  private final Map<String, ControllerInstance> instances = new ConcurrentHashMap<>();
  private final List<ControllerView> views = new ArrayList<>();
  private Running current;
  private int number;
  private boolean shutDown;

  RestartableProcess(ControllerHarness harness, String name, Factory factory) {
    this.harness = harness;
    this.name = name;
    this.factory = factory;
  }

  /** Starts instance 1 and makes the views that follow the current instance. */
  void first() {
    Running first = launch(register(1));
    synchronized (lock) {
      if (shutDown) {
        stop(first);
        throw new IllegalStateException("Cannot start controller process \"" + name + "\": the test ended while "
            + "it started.");
      }
      current = first;
      number = 1;
      for (ControllerView view : first.process().views()) {
        views.add(new CurrentView(view.name()));
      }
    }
  }

  /** The process's name, as given to {@link ControllerHarness#startProcess}. */
  @Override
  public String name() {
    return name;
  }

  /**
   * Which instance runs now: 1 for the first, one more after each restart.
   *
   * @return the instance number
   */
  @Override
  public int instance() {
    synchronized (lock) {
      return number;
    }
  }

  /** Always empty: this is not a ctk {@link Controller}. */
  @Override
  public Optional<Controller> currentController() {
    return Optional.empty();
  }

  /**
   * The views of its controllers, each following the current instance.
   *
   * @return an immutable list, in the order instance 1 gave them
   */
  public List<ControllerView> controllers() {
    synchronized (lock) {
      return List.copyOf(views);
    }
  }

  /**
   * The view of one of its controllers, following the current instance.
   *
   * @param controllerName the name of one of the views the factory's process gave
   * @return the view, for {@code assertThat(..)}
   * @throws IllegalArgumentException when no view has that name
   */
  public ControllerView controller(String controllerName) {
    Objects.requireNonNull(controllerName, "RestartableProcess.controller: name is null");
    for (ControllerView view : controllers()) {
      if (view.name().equals(controllerName)) {
        return view;
      }
    }
    throw new IllegalArgumentException("Controller process \"" + name + "\" has no controller named \""
        + controllerName + "\". Its controllers: " + controllers().stream().map(ControllerView::name).toList()
        + ". Fix: use one of those names (the names of the views its ControllerProcess returns).");
  }

  /**
   * Crash-restarts the process now: stops the current instance and closes its client, then calls the factory for a
   * fresh instance with a fresh client. If the test ends meanwhile, the fresh instance is stopped and this returns.
   *
   * @throws IllegalStateException if the test is over, or the factory failed or returned a process whose
   *     controllers are not named as instance 1's
   */
  public void restart() {
    restart(fresh -> {});
  }

  @Override
  public boolean restart(Consumer<ControllerInstance> beforeStart) {
    synchronized (restarting) {
      Running old;
      int next;
      synchronized (lock) {
        if (shutDown) {
          throw new IllegalStateException("Cannot restart controller process \"" + name + "\": the test it "
              + "belongs to is over and the harness stopped it (instance " + number + "). Restart controllers "
              + "only while their test runs.");
        }
        old = current;
        next = number + 1;
      }
      stop(old);
      ControllerInstance registered = register(next);
      beforeStart.accept(registered);
      synchronized (lock) {
        if (shutDown) {
          return false;
        }
      }
      Running fresh = launch(registered);
      synchronized (lock) {
        if (shutDown) {
          stop(fresh);   // the test ended while it started: nothing may stay running
          return false;
        }
        current = fresh;
        number = next;
      }
      return true;
    }
  }

  /**
   * The instance that sends requests with this {@code User-Agent}.
   *
   * @param userAgent a request's User-Agent
   * @return the instance, current or crashed, or empty
   */
  Optional<ControllerInstance> instanceSending(String userAgent) {
    return userAgent == null ? Optional.empty() : Optional.ofNullable(instances.get(userAgent));
  }

  /** Stops the current instance; later restarts fail. Called when the harness closes. */
  void shutDown() {
    Running toStop;
    synchronized (lock) {
      shutDown = true;
      toStop = current;
    }
    if (toStop != null) {
      stop(toStop);
    }
  }

  private ControllerInstance register(int instanceNumber) {
    String userAgent = "ctk-process/" + name + "/" + instanceNumber + " (#" + id + ")";
    ControllerInstance instance = new ControllerInstance(name, instanceNumber, null, userAgent);
    instances.put(userAgent, instance);
    return instance;
  }

  /** Calls the factory for an instance and checks what it returned; stops it when the check fails. */
  private Running launch(ControllerInstance registered) {
    int instanceNumber = registered.number();
    Instance instance = new Instance(harness, name, instanceNumber, registered.userAgent());
    ControllerProcess process;
    try {
      process = factory.start(instance);
    } catch (Exception e) {
      instance.closeClient();
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IllegalStateException("The factory of controller process \"" + name + "\" failed to start "
          + "instance " + instanceNumber + ": " + e + ". Fix the factory given to harness.startProcess; it must "
          + "return the process running (informers synced, watches open).", e);
    }
    Running running = new Running(instance, process);
    String problem = checkViews(process, instanceNumber);
    if (problem != null) {
      stop(running);
      throw new IllegalStateException(problem);
    }
    return running;
  }

  private String checkViews(ControllerProcess process, int instanceNumber) {
    if (process == null) {
      return "The factory of controller process \"" + name + "\" returned null for instance " + instanceNumber
          + ". Fix: return the started process, e.g. ControllerProcess.of(List.of(probe), operator::stop).";
    }
    List<String> names = process.views().stream().map(ControllerView::name).toList();
    if (names.isEmpty() || new HashSet<>(names).size() != names.size()) {
      return "Controller process \"" + name + "\" instance " + instanceNumber + " shows the controllers " + names
          + "; give each of its controllers a view with a distinct name, at least one.";
    }
    synchronized (lock) {
      List<String> expected = views.stream().map(ControllerView::name).toList();
      if (!views.isEmpty() && !new HashSet<>(expected).equals(new HashSet<>(names))) {
        return "Controller process \"" + name + "\" instance " + instanceNumber + " shows the controllers "
            + names + ", but instance 1 showed " + expected + ". Fix: build the same controllers, under the same "
            + "names, on every call of the factory.";
      }
    }
    return null;
  }

  private void stop(Running running) {
    try {
      running.process().close();
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      LOG.warn("Stopping {} failed; ctk went on as if it stopped", running.instance(), e);
    } finally {
      running.instance().closeClient();
    }
  }

  private ControllerView currentView(String viewName) {
    Running running;
    synchronized (lock) {
      running = current;
    }
    for (ControllerView view : running.process().views()) {
      if (view.name().equals(viewName)) {
        return view;
      }
    }
    throw new IllegalStateException("Controller process \"" + name + "\" instance " + running.instance().number()
        + " no longer shows controller \"" + viewName + "\"");
  }

  @Override
  public String toString() {
    synchronized (lock) {
      return "RestartableProcess \"" + name + "\" (instance " + number + ")";
    }
  }

  /** One controller of the process, as the current instance shows it. */
  private final class CurrentView implements ControllerView {

    private final String viewName;
    private final WorkQueueView queue = new WorkQueueView() {
      @Override
      public String name() {
        return currentView(viewName).workQueue().name();
      }

      @Override
      public Vocabulary vocabulary() {
        return currentView(viewName).workQueue().vocabulary();
      }

      @Override
      public WorkQueueStats stats() {
        return currentView(viewName).workQueue().stats();
      }

      @Override
      public String toString() {
        return currentView(viewName).workQueue().toString();
      }
    };

    CurrentView(String viewName) {
      this.viewName = viewName;
    }

    @Override
    public String name() {
      return viewName;
    }

    @Override
    public Vocabulary vocabulary() {
      return currentView(viewName).vocabulary();
    }

    @Override
    public boolean isRunning() {
      return currentView(viewName).isRunning();
    }

    @Override
    public List<CacheState> caches() {
      return currentView(viewName).caches();
    }

    @Override
    public WorkQueueView workQueue() {
      return queue;
    }

    @Override
    public ControllerStats stats() {
      return currentView(viewName).stats();
    }

    @Override
    public List<ReconcileRecord> reconcileLog() {
      return currentView(viewName).reconcileLog();
    }

    @Override
    public Map<ObjectKey, Duration> runningReconciles() {
      return currentView(viewName).runningReconciles();
    }

    @Override
    public String toString() {
      return currentView(viewName) + " (" + RestartableProcess.this + ")";
    }
  }
}
