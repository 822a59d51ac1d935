package dev.ctk.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link LeaderElection#kill()} and {@link LeaderElection#close()} while an attempt is blocked (in the
 * controller supplier or a callback): they return without waiting for it, and the attempt discards
 * what it was doing when it resumes.
 */
class LeaderElectionThreadsTest {

  private static final String NS = "test";
  private static final String LEASE = "nginx-service";
  private static final Duration LEASE_DURATION = Duration.ofSeconds(15);
  private static final Duration RETRY = Duration.ofSeconds(2);
  private static final Duration BOUND = Duration.ofSeconds(10);
  /** Longer than BOUND: a call that waits for a blocked attempt fails before the attempt gives up. */
  private static final Duration BLOCKED_AT_MOST = BOUND.multipliedBy(3);

  private final Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
  private final List<LeaderElection> elections = new ArrayList<>();
  private final List<Controller> built = new CopyOnWriteArrayList<>();
  private final List<String> callbacks = new CopyOnWriteArrayList<>();
  private final CountDownLatch blocked = new CountDownLatch(1);
  private final CountDownLatch unblock = new CountDownLatch(1);
  private final VirtualTime time = VirtualTime.create();
  private KubernetesMockServer server;
  private KubernetesClient client;

  @BeforeEach
  void startServer() {
    server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(),
        responses, new KubernetesMixedDispatcher(responses), false);
    server.init();
    client = server.createClient(b -> b.editOrNewConfig().withRequestRetryBackoffLimit(0)
        .endConfig());
  }

  @AfterEach
  void stopEverything() {
    unblock.countDown();
    elections.forEach(LeaderElection::close);
    built.forEach(Controller::close);
    client.close();
    server.destroy();
  }

  @Test
  void kill_returns_while_the_controller_supplier_is_blocked_and_the_attempt_closes_its_build() {
    LeaderElection election =
        register(candidate("instance-1", this::blockingController).build());
    CompletableFuture<Void> starting = onThread(election::start);
    awaitBlocked("the first attempt to call the controller supplier");

    returns("kill()", onThread(election::kill));

    assertThat(starting).as("the attempt is still in the supplier").isNotDone();
    assertThat(election.isLeader()).isFalse();
    assertThat(election.controller()).isEmpty();
    unblock.countDown();
    returns("start() once the supplier returned", starting);
    assertThat(built).singleElement()
        .satisfies(c -> assertThat(c.isRunning()).as("the controller the attempt built").isFalse());
    assertThat(election.controller()).isEmpty();
    assertThat(election.isLeader()).isFalse();
    assertThat(election.leaseHolder()).as("a crash keeps the Lease").contains("instance-1");
    assertThat(time.pendingTasks()).as("no attempt after kill()").isZero();
    assertThat(callbacks).isEmpty();
  }

  @Test
  void close_returns_while_an_attempt_inside_advance_is_blocked_and_releases_the_lease() {
    LeaderElection first = register(candidate("instance-1", this::controller).build()).start();
    LeaderElection second = register(candidate("instance-2", this::blockingController).build());
    second.start();
    first.kill();
    CompletableFuture<Void> advancing = onThread(() -> time.advance(LEASE_DURATION.plus(RETRY)));
    awaitBlocked("the standby's attempt at 16s to call the controller supplier");

    returns("close()", onThread(second::close));

    assertThat(advancing).as("advance() still runs the blocked attempt").isNotDone();
    assertThat(second.isLeader()).isFalse();
    assertThat(second.controller()).isEmpty();
    assertThat(second.leaseHolder()).as("close() released the Lease").isEmpty();
    unblock.countDown();
    returns("advance() once the supplier returned", advancing);
    assertThat(built).hasSize(2);
    assertThat(built.get(1).isRunning()).as("the controller the blocked attempt built").isFalse();
    assertThat(second.controller()).isEmpty();
    assertThat(second.leaseHolder()).isEmpty();
    assertThat(time.pendingTasks()).as("no attempt of either after kill() and close()").isZero();
    assertThat(callbacks).as("onStartedLeading never ran, so neither did onStoppedLeading")
        .isEmpty();
  }

  @Test
  void close_returns_while_onStartedLeading_waits_for_it_and_onStoppedLeading_runs_after_it() {
    AtomicReference<List<String>> callbacksWhenCloseReturned = new AtomicReference<>();
    CountDownLatch closeReturned = new CountDownLatch(1);
    LeaderElection election = candidate("instance-1", this::controller)
        .onStartedLeading(() -> {
          callbacks.add("started");
          blocked.countDown();
          awaitLatch(closeReturned, "close() on another thread to return");
          callbacks.add("started returns");
        })
        .build();
    register(election);
    CompletableFuture<Void> starting = onThread(election::start);
    awaitBlocked("onStartedLeading to run");
    Controller running = election.controller().orElseThrow();

    returns("close()", onThread(() -> {
      election.close();
      callbacksWhenCloseReturned.set(List.copyOf(callbacks));
      closeReturned.countDown();
    }));

    returns("start() once onStartedLeading returned", starting);
    assertThat(callbacksWhenCloseReturned.get()).containsExactly("started");
    assertThat(callbacks).containsExactly("started", "started returns", "stopped");
    assertThat(running.isRunning()).isFalse();
    assertThat(election.isLeader()).isFalse();
    assertThat(election.controller()).isEmpty();
    assertThat(election.leaseHolder()).isEmpty();
    assertThat(time.pendingTasks()).isZero();
  }

  @Test
  void a_callback_that_calls_close_returns_and_onStoppedLeading_runs_after_it() {
    AtomicReference<LeaderElection> self = new AtomicReference<>();
    LeaderElection election = candidate("instance-1", this::controller)
        .onStartedLeading(() -> {
          callbacks.add("started");
          self.get().close();
          callbacks.add("close returned");
        })
        .build();
    register(election);
    self.set(election);

    returns("start() whose onStartedLeading calls close()", onThread(election::start));

    assertThat(callbacks).containsExactly("started", "close returned", "stopped");
    assertThat(built).singleElement().satisfies(c -> assertThat(c.isRunning()).isFalse());
    assertThat(election.isLeader()).isFalse();
    assertThat(election.controller()).isEmpty();
    assertThat(election.leaseHolder()).isEmpty();
    assertThat(time.pendingTasks()).isZero();
  }

  private LeaderElection.Builder candidate(String identity, Supplier<Controller> controller) {
    return LeaderElection.builder(LEASE, NS)
        .withIdentity(identity)
        .withClient(client)
        .withTimeSource(time)
        .withLeaseDuration(LEASE_DURATION)
        .withRenewDeadline(Duration.ofSeconds(10))
        .withRetryPeriod(RETRY)
        .withController(controller)
        .onStoppedLeading(() -> callbacks.add("stopped"));
  }

  private Controller controller() {
    Controller controller = Controller.builder("controller-" + (built.size() + 1))
        .watch(client.configMaps().inNamespace(NS).runnableInformer(0),
            EventHandlers.enqueueObject())
        .withTimeSource(time)
        .withReconciler(key -> Result.done())
        .build();
    built.add(controller);
    return controller;
  }

  private Controller blockingController() {
    blocked.countDown();
    awaitLatch(unblock, "the test to unblock the controller supplier");
    return controller();
  }

  private LeaderElection register(LeaderElection election) {
    elections.add(election);
    return election;
  }

  private void awaitBlocked(String what) {
    await().atMost(BOUND).alias("waiting for " + what).until(() -> blocked.getCount() == 0);
  }

  private static void returns(String what, CompletableFuture<Void> call) {
    await().atMost(BOUND).alias(what + " returns (it must not wait for a blocked attempt)")
        .until(call::isDone);
    call.join();
  }

  private static void awaitLatch(CountDownLatch latch, String what) {
    try {
      if (!latch.await(BLOCKED_AT_MOST.toSeconds(), TimeUnit.SECONDS)) {
        throw new IllegalStateException("Waited " + BLOCKED_AT_MOST + " for " + what + "; it did "
            + "not happen.");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for " + what, e);
    }
  }

  private static CompletableFuture<Void> onThread(Runnable call) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    Thread thread = new Thread(() -> {
      try {
        call.run();
        done.complete(null);
      } catch (Throwable e) {
        done.completeExceptionally(e);
      }
    }, "leader-election-test");
    thread.setDaemon(true);
    thread.start();
    return done;
  }
}
