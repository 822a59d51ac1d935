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
 * but unchanged for the lease duration, it writes this identity into it, optimistically (a write
 * carries the resourceVersion it read; a 409 Conflict means another candidate won). Expiry is
 * measured on this candidate's time source from when it last saw the Lease's spec change, never from
 * the Lease's timestamps, so clock skew between candidates does not matter. The Lease gets
 * {@code holderIdentity}, {@code leaseDurationSeconds}, {@code acquireTime} and {@code renewTime}
 * (from the time source, in microseconds) and {@code leaseTransitions} (+1 each time the holder
 * changes). A leader whose renewals fail for the renew deadline (the API fails, or another identity
 * holds the Lease) stops leading; it stays a candidate and may lead again later.
 *
 * <p><b>Threads.</b> Attempts run on the time source's threads (for {@link VirtualTime}: inside
 * {@code advance}, so after {@code advance} returns every due attempt was made). The controller is
 * built by the supplier and started when leadership is acquired, and closed when it is lost, on that
 * thread. API errors are logged and retried, never thrown from an attempt.
 *
 * @since 0.1.0
 */
public final class LeaderElection implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

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

  private volatile boolean leader;
  private volatile Controller controller;
  private boolean started;
  private boolean stopped;
  private long lastRenewal;
  private TimeSource.ScheduledTask next;

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
   * Makes a first attempt to acquire the Lease on the calling thread (so a free Lease is led when
   * this returns), then one every retry period on the time source.
   *
   * @return this election
   * @throws IllegalStateException if called twice, or after {@link #close()} or {@link #kill()}
   */
  public synchronized LeaderElection start() {
    if (started || stopped) {
      throw new IllegalStateException("LeaderElection of " + identity + " on Lease " + namespace
          + "/" + leaseName + " was already " + (stopped ? "stopped" : "started") + "; an election "
          + "starts once. Build a new one with LeaderElection.builder(\"" + leaseName + "\", \""
          + namespace + "\") to run it again.");
    }
    started = true;
    attempt();
    return this;
  }

  private void attempt() {
    synchronized (this) {
      if (stopped) {
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
      if (!stopped) {
        next = time.schedule(retryPeriod, this::attempt);
      }
    }
  }

  private void step() {
    boolean holds = candidate.tryAcquireOrRenew();
    long now = time.nanoTime();
    if (holds) {
      lastRenewal = now;
      if (!leader) {
        leader = true;
        LOG.info("{} acquired Lease {}/{} and leads", identity, namespace, leaseName);
        startController();
        quietly("onStartedLeading", onStartedLeading);
      } else if (controller == null) {
        startController();
      }
    } else if (leader && now - lastRenewal >= renewDeadline.toNanos()) {
      LOG.warn("{} lost Lease {}/{}: it could not renew it for {} (renew deadline {}); its "
          + "controller is stopped", identity, namespace, leaseName,
          Duration.ofNanos(now - lastRenewal), renewDeadline);
      stopLeading();
      quietly("onStoppedLeading", onStoppedLeading);
    }
  }

  private void startController() {
    if (controllerFactory == null) {
      return;
    }
    Controller built = null;
    try {
      built = controllerFactory.get();
      Objects.requireNonNull(built, "the controller supplier returned null");
      built.start();
      controller = built;
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      if (built != null) {
        built.close();
      }
      LOG.error("{} leads Lease {}/{} but could not start its controller; it tries again in {}",
          identity, namespace, leaseName, retryPeriod, e);
    }
  }

  private void stopLeading() {
    leader = false;
    Controller running = controller;
    controller = null;
    if (running != null) {
      try {
        running.close();
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable e) {
        LOG.warn("{}: closing the controller of Lease {}/{} failed", identity, namespace, leaseName,
            e);
      }
    }
  }

  /**
   * Whether this candidate leads now (it acquired or renewed the Lease within the renew deadline and
   * was neither closed nor killed).
   *
   * @return {@code true} while leading
   */
  public boolean isLeader() {
    return leader;
  }

  /**
   * The controller running while this candidate leads.
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
   * Stops gracefully: no more attempts, the controller is closed, and the Lease is released (its
   * holder cleared) so another candidate takes it at its next attempt; then
   * {@code onStoppedLeading} runs if this candidate led. Idempotent.
   */
  @Override
  public void close() {
    synchronized (this) {
      if (stopped) {
        return;
      }
      stopTimer();
      if (leader) {
        stopLeading();
        candidate.release();
        quietly("onStoppedLeading", onStoppedLeading);
      }
    }
  }

  /**
   * Simulates a crash of this candidate's process: no more attempts and its controller is closed, but
   * the Lease is <em>not</em> released and no callback runs; other candidates take over only once
   * the Lease expired. Idempotent; {@link #close()} afterwards does nothing.
   */
  public void kill() {
    synchronized (this) {
      if (stopped) {
        return;
      }
      stopTimer();
      if (leader) {
        stopLeading();
        LOG.info("{} was killed while leading Lease {}/{}; the Lease stays held until it expires",
            identity, namespace, leaseName);
      }
    }
  }

  private void stopTimer() {
    stopped = true;
    if (next != null) {
      next.cancel();
      next = null;
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
      this.client = Objects.requireNonNull(client, "LeaderElection.Builder.withClient: client is null");
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
      this.time = Objects.requireNonNull(time, "LeaderElection.Builder.withTimeSource: time is null");
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
      this.leaseDuration = Objects.requireNonNull(leaseDuration,
          "LeaderElection.Builder.withLeaseDuration: leaseDuration is null");
      return this;
    }

    /**
     * How long the leader keeps leading while its renewals fail (default 10s).
     *
     * @param renewDeadline shorter than the lease duration, longer than the retry period
     * @return this builder
     */
    public Builder withRenewDeadline(Duration renewDeadline) {
      this.renewDeadline = Objects.requireNonNull(renewDeadline,
          "LeaderElection.Builder.withRenewDeadline: renewDeadline is null");
      return this;
    }

    /**
     * How often every candidate tries to acquire or renew the Lease (default 2s).
     *
     * @param retryPeriod positive, shorter than the renew deadline
     * @return this builder
     */
    public Builder withRetryPeriod(Duration retryPeriod) {
      this.retryPeriod = Objects.requireNonNull(retryPeriod,
          "LeaderElection.Builder.withRetryPeriod: retryPeriod is null");
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
      this.controllerFactory = Objects.requireNonNull(controller,
          "LeaderElection.Builder.withController: controller supplier is null");
      return this;
    }

    /**
     * Runs after leadership was acquired (and the controller started). Failures are logged.
     *
     * @param callback the callback
     * @return this builder
     */
    public Builder onStartedLeading(Runnable callback) {
      this.onStartedLeading = Objects.requireNonNull(callback,
          "LeaderElection.Builder.onStartedLeading: callback is null");
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
      this.onStoppedLeading = Objects.requireNonNull(callback,
          "LeaderElection.Builder.onStoppedLeading: callback is null");
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
