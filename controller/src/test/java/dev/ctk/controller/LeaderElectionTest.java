package dev.ctk.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Leader election on a Lease of fabric8's mock API server, timed by {@link VirtualTime}. */
class LeaderElectionTest {

  private static final String NS = "test";
  private static final String LEASE = "nginx-service";
  private static final Duration LEASE_DURATION = Duration.ofSeconds(15);
  private static final Duration RENEW_DEADLINE = Duration.ofSeconds(10);
  private static final Duration RETRY = Duration.ofSeconds(2);
  private static final Instant START = VirtualTime.DEFAULT_START;

  private final Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
  private final List<LeaderElection> elections = new ArrayList<>();
  private final Map<String, AtomicInteger> controllersBuilt = new ConcurrentHashMap<>();
  private final List<String> callbacks = new CopyOnWriteArrayList<>();
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
    elections.forEach(LeaderElection::close);
    client.close();
    server.destroy();
  }

  @Test
  void of_two_candidates_only_one_leads_and_only_its_controller_runs() {
    LeaderElection first = candidate("instance-1").start();
    LeaderElection second = candidate("instance-2").start();

    time.advance(Duration.ofMinutes(1));

    assertThat(first.isLeader()).isTrue();
    assertThat(second.isLeader()).isFalse();
    assertThat(first.controller()).hasValueSatisfying(c -> assertThat(c.isRunning()).isTrue());
    assertThat(second.controller()).isEmpty();
    assertThat(controllersBuilt.keySet()).containsExactly("instance-1");
    assertThat(first.leaseHolder()).contains("instance-1");
    assertThat(second.leaseHolder()).contains("instance-1");
    assertThat(callbacks).containsExactly("instance-1 started");
  }

  @Test
  void writes_holder_duration_times_and_transitions_into_the_lease() {
    candidate("instance-1").start();

    time.advance(Duration.ofSeconds(5));

    LeaseSpec spec = lease().getSpec();
    assertThat(spec.getHolderIdentity()).isEqualTo("instance-1");
    assertThat(spec.getLeaseDurationSeconds()).isEqualTo(15);
    assertThat(spec.getAcquireTime().toInstant()).isEqualTo(START);
    assertThat(spec.getRenewTime().toInstant()).isEqualTo(START.plusSeconds(4));
    assertThat(spec.getLeaseTransitions()).isZero();
  }

  @Test
  void after_the_leader_is_killed_another_takes_over_once_the_lease_expired_and_not_before() {
    LeaderElection first = candidate("instance-1").start();
    LeaderElection second = candidate("instance-2").start();
    Controller firstController = first.controller().orElseThrow();

    first.kill();

    assertThat(first.isLeader()).isFalse();
    assertThat(firstController.isRunning()).isFalse();
    assertThat(callbacks).containsExactly("instance-1 started");

    time.advance(LEASE_DURATION.minus(Duration.ofSeconds(1)));

    assertThat(second.isLeader()).isFalse();
    assertThat(second.leaseHolder()).contains("instance-1");

    time.advance(RETRY);

    assertThat(second.isLeader()).isTrue();
    assertThat(second.controller()).hasValueSatisfying(c -> assertThat(c.isRunning()).isTrue());
    assertThat(second.leaseHolder()).contains("instance-2");
    assertThat(lease().getSpec().getLeaseTransitions()).isEqualTo(1);
    assertThat(lease().getSpec().getAcquireTime().toInstant()).isEqualTo(START.plusSeconds(16));
    assertThat(callbacks).containsExactly("instance-1 started", "instance-2 started");
  }

  @Test
  void close_releases_the_lease_and_another_takes_over_at_its_next_retry() {
    LeaderElection first = candidate("instance-1").start();
    LeaderElection second = candidate("instance-2").start();
    LeaderElection third = candidate("instance-3").start();
    Controller firstController = first.controller().orElseThrow();

    first.close();

    assertThat(first.isLeader()).isFalse();
    assertThat(firstController.isRunning()).isFalse();
    assertThat(first.leaseHolder()).isEmpty();
    time.advance(RETRY);
    assertThat(second.isLeader()).isTrue();
    assertThat(third.isLeader()).isFalse();
    assertThat(lease().getSpec().getLeaseTransitions()).isEqualTo(1);

    second.close();
    time.advance(RETRY);

    assertThat(third.isLeader()).isTrue();
    assertThat(lease().getSpec().getLeaseTransitions()).isEqualTo(2);
    assertThat(callbacks).containsExactly("instance-1 started", "instance-1 stopped",
        "instance-2 started", "instance-2 stopped", "instance-3 started");
  }

  @Test
  void a_leader_that_cannot_renew_stops_leading_after_the_renew_deadline() {
    LeaderElection first = candidate("instance-1").start();
    Controller controller = first.controller().orElseThrow();
    client.leases().inNamespace(NS).withName(LEASE).edit(lease -> {
      lease.getSpec().setHolderIdentity("intruder");
      lease.getSpec().setRenewTime(ZonedDateTime.ofInstant(START, ZoneOffset.UTC));
      return lease;
    });

    time.advance(RENEW_DEADLINE.minus(RETRY));

    assertThat(first.isLeader()).isTrue();
    assertThat(controller.isRunning()).isTrue();

    time.advance(RETRY);

    assertThat(first.isLeader()).isFalse();
    assertThat(first.controller()).isEmpty();
    assertThat(controller.isRunning()).isFalse();
    assertThat(first.leaseHolder()).contains("intruder");
    assertThat(callbacks).containsExactly("instance-1 started", "instance-1 stopped");
  }

  @Test
  void api_errors_are_retried_and_lose_leadership_after_the_renew_deadline() {
    LeaderElection first = candidate("instance-1").start();
    server.expect().get().withPath("/apis/coordination.k8s.io/v1/namespaces/test/leases/" + LEASE)
        .andReturn(500, new StatusBuilder().withCode(500).withMessage("injected").build()).always();

    time.advance(RENEW_DEADLINE.minus(RETRY));

    assertThat(first.isLeader()).isTrue();

    time.advance(RETRY);

    assertThat(first.isLeader()).isFalse();
    assertThat(callbacks).containsExactly("instance-1 started", "instance-1 stopped");
    time.advance(Duration.ofMinutes(1));
    assertThat(first.isLeader()).isFalse();
    assertThat(time.pendingTasks()).as("the candidate keeps retrying").isEqualTo(1);
  }

  @Test
  void a_lease_held_by_another_expires_after_the_duration_its_holder_wrote_not_a_shorter_own_one() {
    LeaderElection holder = candidate("instance-1", Duration.ofSeconds(40), Duration.ofSeconds(30))
        .start();
    LeaderElection standby = candidate("instance-2").start(); // its own lease duration is 15s
    holder.kill();

    time.advance(Duration.ofSeconds(39));

    assertThat(standby.isLeader()).as("the Lease says 40s; 39s passed").isFalse();
    assertThat(standby.leaseHolder()).contains("instance-1");

    time.advance(RETRY);

    assertThat(standby.isLeader()).as("its attempt at 40s").isTrue();
    assertThat(lease().getSpec().getAcquireTime().toInstant()).isEqualTo(START.plusSeconds(40));
    assertThat(lease().getSpec().getLeaseDurationSeconds()).isEqualTo(15);
  }

  @Test
  void a_lease_held_by_another_expires_after_the_duration_its_holder_wrote_not_a_longer_own_one() {
    LeaderElection holder = candidate("instance-1").start(); // writes 15s into the Lease
    LeaderElection standby = candidate("instance-2", Duration.ofSeconds(40),
        Duration.ofSeconds(30)).start();
    holder.kill();

    time.advance(Duration.ofSeconds(15));

    assertThat(standby.isLeader()).as("the Lease says 15s; 15s passed, the next retry is at 16s")
        .isFalse();

    time.advance(RETRY);

    assertThat(standby.isLeader()).as("its attempt at 16s").isTrue();
    assertThat(lease().getSpec().getAcquireTime().toInstant()).isEqualTo(START.plusSeconds(16));
    assertThat(lease().getSpec().getLeaseDurationSeconds()).isEqualTo(40);
  }

  @Test
  void a_lease_that_names_no_duration_expires_after_the_candidate_s_own() {
    client.leases().inNamespace(NS).resource(new LeaseBuilder()
        .withNewMetadata().withName(LEASE).withNamespace(NS).endMetadata()
        .withNewSpec().withHolderIdentity("intruder").endSpec()
        .build()).create();
    LeaderElection standby = candidate("instance-1").start();

    time.advance(LEASE_DURATION.minus(Duration.ofSeconds(1)));

    assertThat(standby.isLeader()).as("14s after it saw the Lease; its own duration is 15s")
        .isFalse();

    time.advance(RETRY);

    assertThat(standby.isLeader()).as("its attempt at 16s").isTrue();
    assertThat(lease().getSpec().getAcquireTime().toInstant()).isEqualTo(START.plusSeconds(16));
  }

  @Test
  void starts_once() {
    LeaderElection election = candidate("instance-1").start();

    assertThatThrownBy(election::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("LeaderElection of instance-1 on Lease test/nginx-service was already started; "
            + "an election starts once. Build a new one with LeaderElection.builder("
            + "\"nginx-service\", \"test\") to run it again.");
    assertThat(election).hasToString("LeaderElection[lease=test/nginx-service, "
        + "identity=instance-1, leader=true]");
  }

  @Test
  void builder_refuses_a_renew_deadline_not_shorter_than_the_lease_duration() {
    LeaderElection.Builder builder = LeaderElection.builder(LEASE, NS).withIdentity("a")
        .withClient(client).withLeaseDuration(Duration.ofSeconds(10))
        .withRenewDeadline(Duration.ofSeconds(10));

    assertThatThrownBy(builder::build)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("LeaderElection on Lease test/nginx-service cannot be built: the lease duration "
            + "PT10S must be longer than the renew deadline PT10S, or another candidate may take the "
            + "Lease while the leader still leads.");
  }

  @Test
  void builder_requires_an_identity() {
    LeaderElection.Builder builder = LeaderElection.builder(LEASE, NS).withClient(client);

    assertThatThrownBy(builder::build)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("LeaderElection on Lease test/nginx-service cannot be built: no identity. Call "
            + "withIdentity(\"instance-1\") with a name unique among the candidates (e.g. the pod "
            + "name).");
  }

  @Test
  void builder_refuses_a_lease_duration_of_fractional_seconds() {
    LeaderElection.Builder builder = LeaderElection.builder(LEASE, NS).withIdentity("a")
        .withClient(client).withLeaseDuration(Duration.ofMillis(15_500));

    assertThatThrownBy(builder::build)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("LeaderElection on Lease test/nginx-service cannot be built: the lease duration "
            + "PT15.5S must be whole seconds: the Lease stores leaseDurationSeconds.");
  }

  private LeaderElection candidate(String identity) {
    return candidate(identity, LEASE_DURATION, RENEW_DEADLINE);
  }

  private LeaderElection candidate(String identity, Duration leaseDuration,
      Duration renewDeadline) {
    LeaderElection election = LeaderElection.builder(LEASE, NS)
        .withIdentity(identity)
        .withClient(client)
        .withTimeSource(time)
        .withLeaseDuration(leaseDuration)
        .withRenewDeadline(renewDeadline)
        .withRetryPeriod(RETRY)
        .withController(() -> {
          controllersBuilt.computeIfAbsent(identity, k -> new AtomicInteger()).incrementAndGet();
          return Controller.builder(identity)
              .watch(client.configMaps().inNamespace(NS).runnableInformer(0),
                  EventHandlers.enqueueObject())
              .withTimeSource(time)
              .withReconciler(key -> Result.done())
              .build();
        })
        .onStartedLeading(() -> callbacks.add(identity + " started"))
        .onStoppedLeading(() -> callbacks.add(identity + " stopped"))
        .build();
    elections.add(election);
    return election;
  }

  private Lease lease() {
    return client.leases().inNamespace(NS).withName(LEASE).get();
  }
}
