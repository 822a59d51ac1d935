package dev.ctk.examples.nginx;

import static dev.ctk.examples.nginx.NginxServiceControllerTest.awaitService;
import static dev.ctk.examples.nginx.NginxServiceControllerTest.nginxDeployment;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.controller.LeaderElection;
import dev.ctk.controller.VirtualTime;
import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Two replicas of the nginx controller, one Lease, one fake API server, virtual time: only the leader runs its
 * controller; when the leader dies without releasing the Lease, the standby takes over once the lease has run
 * out on the clock, and not before.
 */
@ControllerTest(virtualTime = true)
class NginxServiceControllerLeaderElectionTest {

  private static final Duration LEASE = ofSeconds(15);
  private static final Duration RENEW_DEADLINE = ofSeconds(10);
  private static final Duration RETRY = ofSeconds(2);

  @Test
  void the_standby_takes_over_within_the_lease_after_the_leader_dies(FakeCluster cluster,
      ControllerHarness harness, VirtualTime time) {
    // GIVEN two replicas, each with its own client, as two processes would have
    LeaderElection first = harness.closeAfterTest(replica("replica-1", cluster, harness, time));
    LeaderElection second = harness.closeAfterTest(replica("replica-2", cluster, harness, time));
    first.start();
    second.start();
    assertThat(first.isLeader()).isTrue();
    assertThat(second.isLeader()).isFalse();
    assertThat(second.controller()).isEmpty();
    cluster.client().resource(nginxDeployment("web", 80)).create();
    awaitService(cluster.client(), "web");
    // region:failover
    // WHEN the leader dies: it stops renewing, the Lease still names it
    first.kill();
    // THEN the standby waits out the lease: at 14s, after its retries at 2s .. 14s, it is not leading ...
    time.advance(LEASE.minusSeconds(1));
    assertThat(second.isLeader()).as("standby leading %s after the leader died", time.elapsed()).isFalse();
    assertThat(second.controller()).isEmpty();
    assertThat(first.leaseHolder()).contains("replica-1");
    // ... and at its first retry after the 15s lease ran out (16s) it leads, its own controller running
    time.advance(RETRY);
    assertThat(second.isLeader()).as("standby leading %s after the leader died", time.elapsed()).isTrue();
    assertThat(second.controller()).hasValueSatisfying(c -> assertThat(c.isRunning()).isTrue());
    // endregion:failover
    Lease lease = cluster.client().leases().inNamespace("default").withName("nginx-service").get();
    assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("replica-2");
    assertThat(lease.getSpec().getLeaseTransitions()).isEqualTo(1);
    // AND the new leader does the work
    cluster.client().resource(nginxDeployment("api", 8080)).create();
    awaitService(cluster.client(), "api");
  }

  @Test
  void a_leader_that_shuts_down_hands_over_at_the_next_retry(FakeCluster cluster, ControllerHarness harness,
      VirtualTime time) {
    // GIVEN
    LeaderElection first = harness.closeAfterTest(replica("replica-1", cluster, harness, time));
    LeaderElection second = harness.closeAfterTest(replica("replica-2", cluster, harness, time));
    first.start();
    second.start();
    // WHEN the leader shuts down cleanly: it releases the Lease
    first.close();
    // THEN the standby takes over at its next retry (2s), without waiting for the 15s lease to run out
    assertThat(second.isLeader()).isFalse();
    time.advance(RETRY);
    assertThat(second.isLeader()).isTrue();
    assertThat(second.controller()).hasValueSatisfying(c -> assertThat(c.isRunning()).isTrue());
  }

  // region:replica
  private static LeaderElection replica(String identity, FakeCluster cluster, ControllerHarness harness,
      VirtualTime time) {
    KubernetesClient client = harness.closeAfterTest(cluster.newClient());
    return LeaderElection.builder("nginx-service", "default")
        .withIdentity(identity)
        .withClient(client)
        .withTimeSource(time)
        .withLeaseDuration(LEASE)
        .withRenewDeadline(RENEW_DEADLINE)
        .withRetryPeriod(RETRY)
        .withController(() -> harness.observe(NginxServiceController.create(client)))
        .build();
  }
  // endregion:replica
}
