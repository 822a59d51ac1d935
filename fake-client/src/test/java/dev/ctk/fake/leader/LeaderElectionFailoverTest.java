package dev.ctk.fake.leader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.LeaderElection;
import dev.ctk.controller.Result;
import dev.ctk.controller.VirtualTime;
import dev.ctk.fake.FakeCluster;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Two controller instances elect a leader on a Lease of a FakeCluster whose clock is virtual. */
class LeaderElectionFailoverTest {

  private static final String LEASE = "nginx-service";
  private static final Duration LEASE_DURATION = Duration.ofSeconds(15);
  private static final Duration RETRY = Duration.ofSeconds(2);

  private final VirtualTime time = VirtualTime.create();
  private final List<LeaderElection> elections = new ArrayList<>();
  private FakeCluster cluster;
  private KubernetesClient client;

  @BeforeEach
  void startCluster() {
    cluster = FakeCluster.builder().withClock(time.clock()).build();
    client = cluster.client();
  }

  @AfterEach
  void stopCluster() {
    elections.forEach(LeaderElection::close);
    cluster.close();
  }

  @Test
  void the_other_instance_takes_over_within_the_lease_after_the_leader_is_killed() {
    LeaderElection first = instance("instance-1").start();
    LeaderElection second = instance("instance-2").start();
    time.advance(Duration.ofSeconds(30));
    assertThat(first.isLeader()).isTrue();
    assertThat(second.isLeader()).isFalse();
    assertThat(second.controller()).isEmpty();
    Instant killedAt = time.now();

    first.kill();
    time.advance(LEASE_DURATION.minus(Duration.ofSeconds(1)));

    assertThat(second.isLeader()).as("before the lease expired").isFalse();
    assertThat(second.leaseHolder()).contains("instance-1");

    time.advance(RETRY);

    assertThat(second.isLeader()).as("once the lease expired and a retry passed").isTrue();
    assertThat(second.controller()).hasValueSatisfying(c -> assertThat(c.isRunning()).isTrue());
    LeaseSpec spec = client.leases().inNamespace("default").withName(LEASE).get().getSpec();
    assertThat(spec.getHolderIdentity()).isEqualTo("instance-2");
    assertThat(spec.getLeaseTransitions()).isEqualTo(1);
    assertThat(spec.getAcquireTime().toInstant())
        .isAfter(killedAt.plus(LEASE_DURATION.minus(RETRY)))
        .isBeforeOrEqualTo(killedAt.plus(LEASE_DURATION).plus(RETRY));
  }

  @Test
  void the_standby_waits_for_the_lease_duration_the_killed_leader_wrote_not_its_own() {
    LeaderElection first = instance("instance-1", Duration.ofSeconds(60), Duration.ofSeconds(45))
        .start();
    LeaderElection second = instance("instance-2").start(); // its own lease duration is 15s
    Instant killedAt = time.now();

    first.kill();
    time.advance(Duration.ofSeconds(59));

    assertThat(second.isLeader()).as("59s after the kill; the Lease says 60s").isFalse();
    assertThat(second.leaseHolder()).contains("instance-1");

    time.advance(RETRY);

    assertThat(second.isLeader()).as("its retry at 60s").isTrue();
    LeaseSpec spec = client.leases().inNamespace("default").withName(LEASE).get().getSpec();
    assertThat(spec.getAcquireTime().toInstant()).isEqualTo(killedAt.plusSeconds(60));
    assertThat(spec.getLeaseDurationSeconds()).isEqualTo(15);
  }

  @Test
  void a_graceful_close_hands_over_at_the_next_retry() {
    LeaderElection first = instance("instance-1").start();
    LeaderElection second = instance("instance-2").start();

    first.close();

    assertThat(first.leaseHolder()).isEmpty();
    time.advance(RETRY);
    assertThat(second.isLeader()).isTrue();
    assertThat(second.leaseHolder()).contains("instance-2");
  }

  @Test
  void the_lease_timestamps_come_from_the_virtual_clock() {
    instance("instance-1").start();

    time.advance(Duration.ofSeconds(6));

    LeaseSpec spec = client.leases().inNamespace("default").withName(LEASE).get().getSpec();
    assertThat(spec.getAcquireTime().toInstant()).isEqualTo(VirtualTime.DEFAULT_START);
    assertThat(spec.getRenewTime().toInstant())
        .isEqualTo(VirtualTime.DEFAULT_START.plusSeconds(6));
  }

  private LeaderElection instance(String identity) {
    return instance(identity, LEASE_DURATION, Duration.ofSeconds(10));
  }

  private LeaderElection instance(String identity, Duration leaseDuration,
      Duration renewDeadline) {
    LeaderElection election = LeaderElection.builder(LEASE, "default")
        .withIdentity(identity)
        .withClient(client)
        .withTimeSource(time)
        .withLeaseDuration(leaseDuration)
        .withRenewDeadline(renewDeadline)
        .withRetryPeriod(RETRY)
        .withController(() -> Controller.builder(identity)
            .watch(client.configMaps().inNamespace("default").runnableInformer(0),
                EventHandlers.enqueueObject())
            .withTimeSource(time)
            .withReconciler(key -> Result.done())
            .build())
        .build();
    elections.add(election);
    return election;
  }
}
