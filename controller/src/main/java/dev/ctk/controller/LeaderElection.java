package dev.ctk.controller;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on a coordination.k8s.io/v1 Lease, timed by a {@link TimeSource}, with the
 * semantics of client-go's leader election: of all candidates sharing a Lease, one leads and runs its
 * controller; the others wait and take over when the leader stops renewing.
 *
 * <pre>{@code
 * VirtualTime time = VirtualTime.create();
 * LeaderElection election = LeaderElection.builder("nginx-service", "default") // Lease name, namespace
 *     .withIdentity("instance-1").withClient(client).withTimeSource(time)
 *     .withLeaseDuration(Duration.ofSeconds(15)).withRenewDeadline(Duration.ofSeconds(10))
 *     .withRetryPeriod(Duration.ofSeconds(2))
 *     .withController(() -> NginxServiceController.create(client, time)) // started when leading
 *     .build();
 * election.start();
 * election.isLeader();
 * election.kill();          // a crash: the Lease stays held until it expires
 * }</pre>
 *
 * <p><b>How it decides.</b> {@link #start()} makes a first attempt on the calling thread, then one
 * every retry period on the time source (no jitter, so runs are reproducible). An attempt reads the
 * Lease: if there is none it creates it; if it is free (no holder), ours, or held by another identity
 * but unchanged for the lease duration that holder wrote into it ({@code leaseDurationSeconds}; this
 * candidate's own when the Lease names none), it writes this identity into it, optimistically (a write
 * carries the resourceVersion it read; a 409 Conflict means another candidate won). Expiry is
 * measured on this candidate's time source from when it last saw the Lease's spec change, never from
 * the Lease's timestamps, so clock skew between candidates does not matter. The Lease gets
 * {@code holderIdentity}, {@code leaseDurationSeconds}, {@code acquireTime} and {@code renewTime}
 * (from the time source, in microseconds) and {@code leaseTransitions} (+1 each time the holder
 * changes). A leader whose renewals fail for the renew deadline (the API fails, or another identity
 * holds the Lease) stops leading; it stays a candidate and may lead again later.
 *
 * <p><b>Threads.</b> Attempts run one at a time, on one serial path: the first on the thread that calls
 * {@link #start()}, each later one on the time source's thread when the previous one scheduled it (for
 * {@link VirtualTime}: inside {@code advance}, on the test thread, so after {@code advance} returns
 * every due attempt was made). An attempt builds and starts the controller when leadership is
 * acquired, closes it when leadership is lost, and runs the callbacks, all on that path. The election's
 * lock only guards its state: no Lease request, controller start or close, or callback runs while it is
 * held, so {@link #kill()}, {@link #close()}, {@link #isLeader()} and {@link #controller()} never wait
 * for an attempt, and a callback may call them. API errors are logged and retried, never thrown from
 * an attempt.
 *
 * <p><b>Stopping while an attempt is in flight.</b> {@link #kill()} and {@link #close()} win: they
 * return without waiting for the attempt, which discards its result when it next checks the state.
 * That attempt closes a controller it was starting (it is never published), releases a Lease it
 * acquired if the election was closed, and makes no further attempt. See {@link #close()} for the
 * callbacks.
 *
 * @since 0.1.0
 */
public final class LeaderElection implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

  /** How the election was stopped. */
  private enum Stop { KILLED, CLOSED }

  /** Whether {@code onStartedLeading} ran for the current leadership. */
  private enum Callback { NOT_RUN, RUNNING, RAN }

  private final String leaseName;
  private final String namespace;
  private final String identity;
  private final TimeSource time;
  private final Duration renewDeadline;
  private final Duration retryPeriod;
  private final Supplier<Controller> controllerFactory;
  private final Runnable onStartedLeading;
  private final Runnable onStoppedLeading;
  private final LeaseCandidate candidate;

  /** Guards the fields below it; never held during I/O, controller start or close, or callbacks. */
  private final Object lock = new Object();
  private volatile boolean leader;
  private volatile Controller controller;
  private boolean started;
  private Stop stop;
  private Callback startedCallback = Callback.NOT_RUN;
  private boolean stoppedCallbackOwed;
  private TimeSource.ScheduledTask next;
  /** Read and written only on the serial path of attempts. */
  private long lastRenewal;

  private LeaderElection(Builder builder) {
    this.leaseName = builder.leaseName;
    this.namespace = builder.namespace;
    this.identity = builder.identity;
    this.time = builder.time;
    this.renewDeadline = builder.renewDeadline;
    this.retryPeriod = builder.retryPeriod;
    this.controllerFactory = builder.controllerFactory;
    this.onStartedLeading = builder.onStartedLeading;
    this.onStoppedLeading = builder.onStoppedLeading;
    this.candidate = new LeaseCandidate(new LeaseLock(builder.client, namespace, leaseName),
        identity, time, builder.leaseDuration);
  }

  /**
   * A builder of a candidate for the Lease {@code namespace/leaseName}.
   *
   * @param leaseName the Lease's name, e.g. the controller's name
   * @param namespace the Lease's namespace
   * @return the builder
   */
  public static Builder builder(String leaseName, String namespace) {
    return new Builder(leaseName, namespace);
  }

  /**
   * Makes a first attempt to acquire the Lease on the calling thread (so a free Lease is led, and its
   * controller started, when this returns), then one every retry period on the time source.
   *
   * @return this election
   * @throws IllegalStateException if called twice, or after {@link #close()} or {@link #kill()}
   */
  public LeaderElection start() {
    synchronized (lock) {
      if (started || stop != null) {
        throw new IllegalStateException("LeaderElection of " + identity + " on Lease " + namespace
            + "/" + leaseName + " was already " + (stop != null ? "stopped" : "started") + "; an "
            + "election starts once. Build a new one with LeaderElection.builder(\"" + leaseName
            + "\", \"" + namespace + "\") to run it again.");
      }
      started = true;
    }
    attempt();
    return this;
  }

  private void attempt() {
    if (stopped()) {
      return;
    }
    try {
      step();
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      LOG.warn("LeaderElection of {} on Lease {}/{}: an attempt failed; retrying in {}", identity,
          namespace, leaseName, retryPeriod, e);
    }
    if (stopped()) {
      return;
    }
    TimeSource.ScheduledTask scheduled = time.schedule(retryPeriod, this::attempt);
    synchronized (lock) {
      if (stop == null) {
        next = scheduled;
        return;
      }
    }
    scheduled.cancel(); // stopped while it was being scheduled
  }

  private void step() {
    boolean holds = candidate.tryAcquireOrRenew();
    long now = time.nanoTime();
    Stop stoppedBy;
    boolean acquired = false;
    boolean startController = false;
    boolean lost = false;
    Controller lostController = null;
    boolean stoppedCallback = false;
    synchronized (lock) {
      stoppedBy = stop;
      if (stoppedBy == null && holds) {
        lastRenewal = now;
        acquired = !leader;
        leader = true;
        startController = controller == null && controllerFactory != null;
      } else if (stoppedBy == null && leader && now - lastRenewal >= renewDeadline.toNanos()) {
        lost = true;
        leader = false;
        lostController = controller;
        controller = null;
        stoppedCallback = startedCallback == Callback.RAN;
        startedCallback = Callback.NOT_RUN;
      }
    }
    if (stoppedBy != null) {
      if (holds && stoppedBy == Stop.CLOSED) {
        candidate.release(); // the Lease was written after close() began: give it back
      }
      return;
    }
    if (lost) {
      LOG.warn("{} lost Lease {}/{}: it could not renew it for {} (renew deadline {}); its "
          + "controller is stopped", identity, namespace, leaseName,
          Duration.ofNanos(now - lastRenewal), renewDeadline);
      closeQuietly(lostController);
      if (stoppedCallback) {
        quietly("onStoppedLeading", onStoppedLeading);
      }
      return;
    }
    if (acquired) {
      LOG.info("{} acquired Lease {}/{} and leads", identity, namespace, leaseName);
    }
    if (startController) {
      publish(buildController());
    }
    if (acquired) {
      runStartedCallback();
    }
  }

  private Controller buildController() {
    Controller built = null;
    try {
      built = controllerFactory.get();
      Objects.requireNonNull(built, "the controller supplier returned null");
      built.start();
      return built;
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      closeQuietly(built);
      LOG.error("{} leads Lease {}/{} but could not start its controller; it tries again in {}",
          identity, namespace, leaseName, retryPeriod, e);
      return null;
    }
  }

  /** Makes {@code built} the running controller, or closes it if the election stopped meanwhile. */
  private void publish(Controller built) {
    if (built == null) {
      return;
    }
    synchronized (lock) {
      if (stop == null && leader) {
        controller = built;
        return;
      }
    }
    LOG.info("{}: LeaderElection on Lease {}/{} stopped while its controller started; the "
        + "controller is closed", identity, namespace, leaseName);
    closeQuietly(built);
  }

  private void runStartedCallback() {
    synchronized (lock) {
      if (stop != null || !leader) {
        return;
      }
      startedCallback = Callback.RUNNING;
    }
    quietly("onStartedLeading", onStartedLeading);
    boolean owed;
    synchronized (lock) {
      owed = stoppedCallbackOwed;
      stoppedCallbackOwed = false;
      startedCallback = stop == null && leader ? Callback.RAN : Callback.NOT_RUN;
    }
    if (owed) {
      quietly("onStoppedLeading", onStoppedLeading);
    }
  }

  private boolean stopped() {
    synchronized (lock) {
      return stop != null;
    }
  }

  /**
   * Whether this candidate leads now (it acquired or renewed the Lease within the renew deadline and
   * was neither closed nor killed). Never waits for an attempt in flight.
   *
   * @return {@code true} while leading
   */
  public boolean isLeader() {
    return leader;
  }

  /**
   * The controller running while this candidate leads. Never waits for an attempt in flight; a
   * controller that an attempt is still starting is not returned yet.
   *
   * @return the running controller, empty when not leading (or no controller was configured)
   */
  public Optional<Controller> controller() {
    return Optional.ofNullable(controller);
  }

  /**
   * This candidate's identity, as written into the Lease's {@code holderIdentity}.
   *
   * @return the identity
   */
  public String identity() {
    return identity;
  }

  /**
   * What the Lease says now (read from the API server on each call).
   *
   * @return the Lease's {@code holderIdentity}, empty when there is no Lease or no holder
   * @throws io.fabric8.kubernetes.client.KubernetesClientException if the Lease cannot be read
   */
  public Optional<String> leaseHolder() {
    return Optional.ofNullable(candidate.currentHolder());
  }

  /**
   * Stops gracefully, without waiting for an attempt in flight. Idempotent; does nothing after
   * {@link #kill()}.
   *
   * <p>When it returns: no further attempt starts; {@link #isLeader()} is {@code false} and
   * {@link #controller()} empty; the controller that was running is closed (on the calling thread);
   * if this candidate led, the Lease was released (its holder cleared, on the calling thread, one
   * read and one write) so another candidate takes it at its next attempt; and
   * {@code onStoppedLeading} ran on the calling thread if {@code onStartedLeading} had run for this
   * leadership.
   *
   * <p>An attempt in flight finishes on its own thread, after this returns: a controller it was
   * starting or stopping is closed by it, a Lease it acquired is released, and if
   * {@code onStartedLeading} was running
   * (for example it is the callback that called {@code close()}), {@code onStoppedLeading} runs right
   * after it, on that thread. So {@code onStoppedLeading} runs once after each
   * {@code onStartedLeading} that ran, never before it.
   */
  @Override
  public void close() {
    Stopping stopping;
    boolean stoppedCallback;
    synchronized (lock) {
      if (stop != null) {
        return;
      }
      stoppedCallback = startedCallback == Callback.RAN;
      stoppedCallbackOwed = startedCallback == Callback.RUNNING;
      stopping = beginStop(Stop.CLOSED);
    }
    finishStop(stopping);
    if (stopping.led()) {
      candidate.release();
    }
    if (stoppedCallback) {
      quietly("onStoppedLeading", onStoppedLeading);
    }
  }

  /**
   * Simulates a crash of this candidate's process, without waiting for an attempt in flight: no
   * further attempt starts, {@link #isLeader()} is {@code false}, and the controller that was running
   * is closed on the calling thread; the Lease is <em>not</em> released and no callback runs (an
   * {@code onStartedLeading} already running finishes), so other candidates take over only once the
   * Lease expired. An attempt in flight closes a controller it was starting. Idempotent;
   * {@link #close()} afterwards does nothing.
   */
  public void kill() {
    Stopping stopping;
    synchronized (lock) {
      if (stop != null) {
        return;
      }
      stopping = beginStop(Stop.KILLED);
    }
    finishStop(stopping);
    if (stopping.led()) {
      LOG.info("{} was killed while leading Lease {}/{}; the Lease stays held until it expires",
          identity, namespace, leaseName);
    }
  }

  /**
   * Under the lock: marks the election stopped, so an attempt in flight discards its result, and
   * takes what the caller stops outside the lock.
   */
  private Stopping beginStop(Stop how) {
    stop = how;
    Stopping stopping = new Stopping(next, controller, leader);
    next = null;
    controller = null;
    leader = false;
    startedCallback = Callback.NOT_RUN;
    return stopping;
  }

  /** Outside the lock: cancels the next attempt and closes the controller that was running. */
  private void finishStop(Stopping stopping) {
    if (stopping.nextAttempt() != null) {
      stopping.nextAttempt().cancel();
    }
    closeQuietly(stopping.running());
  }

  /** What {@link #close()} or {@link #kill()} took under the lock. */
  private record Stopping(TimeSource.ScheduledTask nextAttempt, Controller running, boolean led) {}

  private void closeQuietly(Controller running) {
    if (running == null) {
      return;
    }
    try {
      running.close();
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      LOG.warn("{}: closing the controller of Lease {}/{} failed", identity, namespace, leaseName,
          e);
    }
  }

  private void quietly(String what, Runnable callback) {
    if (callback == null) {
      return;
    }
    try {
      callback.run();
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      LOG.warn("{}: the {} callback of Lease {}/{} failed; the election goes on", identity, what,
          namespace, leaseName, e);
    }
  }

  @Override
  public String toString() {
    return "LeaderElection[lease=" + namespace + "/" + leaseName + ", identity=" + identity
        + ", leader=" + leader + "]";
  }

  /**
   * Builds a {@link LeaderElection}. Required: {@code withIdentity} and {@code withClient}. Defaults
   * (client-go's): lease duration 15s, renew deadline 10s, retry period 2s, {@link TimeSource#system()},
   * no controller, no callbacks.
   *
   * <pre>{@code
   * LeaderElection.builder("nginx-service", "default")
   *     .withIdentity("instance-1").withClient(client).withTimeSource(time)
   *     .withController(() -> controller(client, time))
   *     .onStartedLeading(() -> LOG.info("leading")).onStoppedLeading(() -> LOG.info("stopped"))
   *     .build();
   * }</pre>
   *
   * @since 0.1.0
   */
  public static final class Builder {
    private final String leaseName;
    private final String namespace;
    private String identity;
    private KubernetesClient client;
    private TimeSource time = TimeSource.system();
    private Duration leaseDuration = Duration.ofSeconds(15);
    private Duration renewDeadline = Duration.ofSeconds(10);
    private Duration retryPeriod = Duration.ofSeconds(2);
    private Supplier<Controller> controllerFactory;
    private Runnable onStartedLeading;
    private Runnable onStoppedLeading;
    private boolean built;

    private Builder(String leaseName, String namespace) {
      this.leaseName = notBlank(leaseName, "leaseName");
      this.namespace = notBlank(namespace, "namespace");
    }

    /**
     * This candidate's identity, unique among the candidates (e.g. the pod name).
     *
     * @param identity not blank
     * @return this builder
     */
    public Builder withIdentity(String identity) {
      this.identity = notBlank(identity, "identity");
      return this;
    }

    /**
     * The client that reads and writes the Lease.
     *
     * @param client the client
     * @return this builder
     */
    public Builder withClient(KubernetesClient client) {
      this.client = required(client, "withClient", "client");
      return this;
    }

    /**
     * The time source of retries, expiry and the Lease's timestamps (default
     * {@link TimeSource#system()}).
     *
     * @param time the time source, e.g. a {@link VirtualTime}
     * @return this builder
     */
    public Builder withTimeSource(TimeSource time) {
      this.time = required(time, "withTimeSource", "time");
      return this;
    }

    /**
     * How long other candidates wait, after they last saw the Lease change, before taking it
     * (default 15s). Whole seconds: the Lease stores {@code leaseDurationSeconds}.
     *
     * @param leaseDuration whole seconds, at least 1, longer than the renew deadline
     * @return this builder
     */
    public Builder withLeaseDuration(Duration leaseDuration) {
      this.leaseDuration = required(leaseDuration, "withLeaseDuration", "leaseDuration");
      return this;
    }

    /**
     * How long the leader keeps leading while its renewals fail (default 10s).
     *
     * @param renewDeadline shorter than the lease duration, longer than the retry period
     * @return this builder
     */
    public Builder withRenewDeadline(Duration renewDeadline) {
      this.renewDeadline = required(renewDeadline, "withRenewDeadline", "renewDeadline");
      return this;
    }

    /**
     * How often every candidate tries to acquire or renew the Lease (default 2s).
     *
     * @param retryPeriod positive, shorter than the renew deadline
     * @return this builder
     */
    public Builder withRetryPeriod(Duration retryPeriod) {
      this.retryPeriod = required(retryPeriod, "withRetryPeriod", "retryPeriod");
      return this;
    }

    /**
     * Builds a new controller each time leadership is acquired; it is started then, and closed when
     * leadership is lost, on {@link LeaderElection#close()} or {@link LeaderElection#kill()}.
     *
     * @param controller supplies a new, not started controller
     * @return this builder
     */
    public Builder withController(Supplier<Controller> controller) {
      this.controllerFactory = required(controller, "withController", "controller supplier");
      return this;
    }

    /**
     * Runs after leadership was acquired (and the controller started). Failures are logged.
     *
     * @param callback the callback
     * @return this builder
     */
    public Builder onStartedLeading(Runnable callback) {
      this.onStartedLeading = required(callback, "onStartedLeading", "callback");
      return this;
    }

    /**
     * Runs after leadership was lost or given up by {@link LeaderElection#close()} (and the
     * controller closed); not after {@link LeaderElection#kill()}. Failures are logged.
     *
     * @param callback the callback
     * @return this builder
     */
    public Builder onStoppedLeading(Runnable callback) {
      this.onStoppedLeading = required(callback, "onStoppedLeading", "callback");
      return this;
    }

    /**
     * Builds the election (not started). A builder builds once.
     *
     * @return the election
     * @throws IllegalStateException if the identity or client is missing, the durations are not
     *     ordered lease duration &gt; renew deadline &gt; retry period &gt; 0, the lease duration is
     *     not whole seconds, or the builder already built
     */
    public LeaderElection build() {
      String lease = "Lease " + namespace + "/" + leaseName;
      String problem = null;
      if (built) {
        throw new IllegalStateException("This LeaderElection.Builder already built an election on "
            + lease + ". Use a new LeaderElection.builder(..) for another candidate.");
      } else if (identity == null) {
        problem = "no identity. Call withIdentity(\"instance-1\") with a name unique among the "
            + "candidates (e.g. the pod name).";
      } else if (client == null) {
        problem = "no client. Call withClient(client) with the client that reads and writes the "
            + "Lease.";
      } else if (retryPeriod.isZero() || retryPeriod.isNegative()) {
        problem = "the retry period " + retryPeriod + " must be positive.";
      } else if (renewDeadline.compareTo(retryPeriod) <= 0) {
        problem = "the renew deadline " + renewDeadline + " must be longer than the retry period "
            + retryPeriod + ", or the leader never gets a second try to renew.";
      } else if (leaseDuration.compareTo(renewDeadline) <= 0) {
        problem = "the lease duration " + leaseDuration + " must be longer than the renew deadline "
            + renewDeadline + ", or another candidate may take the Lease while the leader still "
            + "leads.";
      } else if (leaseDuration.toNanos() % 1_000_000_000L != 0) {
        problem = "the lease duration " + leaseDuration + " must be whole seconds: the Lease "
            + "stores leaseDurationSeconds.";
      }
      if (problem != null) {
        throw new IllegalStateException("LeaderElection on " + lease + " cannot be built: "
            + problem);
      }
      built = true;
      return new LeaderElection(this);
    }

    private static <T> T required(T value, String method, String what) {
      return Objects.requireNonNull(value,
          () -> "LeaderElection.Builder." + method + ": " + what + " is null");
    }

    private static String notBlank(String value, String what) {
      Objects.requireNonNull(value, () -> "LeaderElection.Builder: " + what + " is null");
      if (value.isBlank()) {
        throw new IllegalArgumentException("LeaderElection.Builder: " + what + " must not be "
            + "blank.");
      }
      return value;
    }
  }
}
