package dev.ctk.assertions;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.controller.Controller;
import dev.ctk.controller.ControllerProbe;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.Reconciler;
import dev.ctk.controller.Result;
import dev.ctk.fake.RequestJournal;
import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Fixed point and idempotency, on real ctk controllers over a fake cluster. The reconcilers in here
 * are shared with {@link ConvergenceHotLoopTest}.
 */
@ControllerTest
class ConvergenceAssertTest {

  static final String OWNER = "ctk.dev/owner";
  static final String ROUND = "ctk.dev/round";

  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void release() {
    release.countDown();
  }

  @Test
  void should_pass_reachesFixedPoint_and_isIdempotent_for_a_controller_that_writes_once(
      ControllerHarness harness, KubernetesClient client) {
    // GIVEN
    Controller controller = harness.start(configMaps(client, "owner", ensureOwner(client)));
    RequestJournal journal = harness.requests();
    // WHEN
    client.resource(configMap("web")).create();
    // THEN
    assertThat(controller).within(ofSeconds(10)).hasReconciledSuccessfully("default/web");
    assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(journal)
        .isIdempotent(journal);
    assertThat(controller).within(ofSeconds(10)).quietFor(ofMillis(200))
        .reachesFixedPoint(journal);
  }

  @Test
  void should_fail_reachesFixedPoint_listing_the_changes_of_the_quiet_period(
      ControllerHarness harness, KubernetesClient client) {
    // GIVEN
    Controller controller = harness.start(configMaps(client, "owner", ensureOwner(client)));
    RequestJournal journal = harness.requests();
    client.resource(configMap("web")).create();
    assertThat(controller).within(ofSeconds(10)).hasReconciled("default/web");
    assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(journal);
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).quietFor(ofMinutes(1)).reachesFixedPoint(journal));
    // THEN
    List<ApiRequestRecord> changes = changes(journal, r -> true);
    assertThat(changes).extracting(ApiRequestRecord::verb).containsExactly("create", "patch");
    assertThat(error).hasMessage("""

        Expecting controller "owner"
          to reach a fixed point (work queue empty, nothing in flight, no change for 1m)
        but it has not settled:
          2 changes in the last 1m:
            %s
            %s
        work queue: queued [], in flight [], waiting []""",
        changes.get(0).summary(), changes.get(1).summary());
  }

  @Test
  void should_fail_reachesFixedPoint_within_a_timeout_while_a_reconcile_is_in_flight(
      ControllerHarness harness, KubernetesClient client) {
    // GIVEN
    CountDownLatch started = new CountDownLatch(1);
    Controller controller = harness.start(configMaps(client, "stuck", key -> {
      started.countDown();
      await(release);
      return Result.done();
    }));
    client.resource(configMap("web")).create();
    assertThat(await(started)).isTrue();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).within(ofSeconds(1)).quietFor(ofMillis(200))
            .reachesFixedPoint(harness.requests()));
    // THEN
    assertThat(error).hasMessage("""

        Expecting controller "stuck"
          to reach a fixed point within 1s (work queue empty, nothing in flight, no change for \
        200ms)
        but it has still not settled:
          in flight: [default/web]
        work queue: queued [], in flight [default/web], waiting []""");
  }

  @Test
  void should_refuse_a_quiet_period_as_long_as_the_timeout(ControllerHarness harness,
      KubernetesClient client) {
    // GIVEN
    Controller controller = harness.start(configMaps(client, "owner", ensureOwner(client)));
    // WHEN, THEN
    assertThatThrownBy(() -> assertThat(controller).within(ofSeconds(1)).quietFor(ofSeconds(1))
        .reachesFixedPoint(harness.requests()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("reachesFixedPoint: the quiet period (1s) must be shorter than the within(..) "
            + "timeout (1s), or no wait could ever see it. Fix: give within(..) more time or "
            + "quietFor(..) less.");
  }

  @Test
  void should_fail_isIdempotent_listing_the_writes_of_the_extra_reconciles(
      ControllerHarness harness, KubernetesClient client) {
    // GIVEN a controller that stamps a secret it does not watch on every reconcile
    AtomicInteger stamps = new AtomicInteger();
    Controller controller = harness.start(configMaps(client, "stamper", key -> {
      client.resource(new SecretBuilder().withNewMetadata().withName(key.name() + "-stamp")
          .withNamespace(key.namespace()).endMetadata()
          .addToStringData("stamp", Integer.toString(stamps.incrementAndGet())).build())
          .fieldManager("stamper").forceConflicts().serverSideApply();
      return Result.done();
    }));
    RequestJournal journal = harness.requests();
    client.resource(configMap("web")).create();
    assertThat(controller).within(ofSeconds(10)).hasReconciled("default/web");
    assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(journal);
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).isIdempotent(journal));
    // THEN
    List<ApiRequestRecord> stampWrites = changes(journal, r -> "secrets".equals(r.resource()));
    assertThat(stampWrites).hasSize(2);
    assertThat(error).hasMessage("""

        Expecting controller "stamper"
          to be idempotent: one more reconcile of each key it reconciled writes nothing
        but reconciling [default/web] once more made 1 changing write:
          %s
        Fix: compare the desired state with the live object and write only what differs, so \
        that a reconcile of a settled object changes nothing.""", stampWrites.get(1).summary());
  }

  @Test
  void should_fail_isIdempotent_for_a_controller_that_reconciled_nothing(
      ControllerHarness harness, KubernetesClient client) {
    // GIVEN
    Controller controller = harness.start(configMaps(client, "owner", ensureOwner(client)));
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).isIdempotent(harness.requests()));
    // THEN
    assertThat(error).hasMessage("""

        Expecting controller "owner"
          to be idempotent: one more reconcile of each key it reconciled writes nothing
        but it has not reconciled any key yet. Fix: first wait until it reconciled, e.g. \
        within(..).reachesFixedPoint(journal) after creating objects.""");
  }

  @Test
  void should_refuse_isIdempotent_for_a_view_whose_queue_it_cannot_add_to(
      ControllerHarness harness) {
    // GIVEN
    ControllerProbe probe = harness.observe(ControllerProbe.create("syncer"));
    // WHEN, THEN
    assertThatThrownBy(() -> assertThat(probe).isIdempotent(harness.requests()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("isIdempotent(..) adds every key to the controller's work queue once more, "
            + "which only ctk's dev.ctk.controller.Controller allows; controller \"syncer\" is a "
            + "dev.ctk.controller.ControllerProbe. Fix: for other controllers, touch each object "
            + "once more yourself (e.g. add an annotation through the client) and then assert "
            + "reachesFixedPoint(..) and hasNoHotLoop(..).");
  }

  // ---- shared controllers and helpers ----

  /** A controller over the ConfigMaps of {@code default}. */
  static Controller configMaps(KubernetesClient client, String name, Reconciler reconciler) {
    return Controller.builder(name)
        .watch(client.configMaps().inNamespace("default").runnableInformer(0),
            EventHandlers.enqueueObject())
        .withReconciler(reconciler)
        .build();
  }

  /** Correct: sets the owner annotation when it is missing, and writes nothing otherwise. */
  static Reconciler ensureOwner(KubernetesClient client) {
    return key -> {
      ConfigMap live = client.configMaps().inNamespace(key.namespace()).withName(key.name()).get();
      if (live != null && (live.getMetadata().getAnnotations() == null
          || !live.getMetadata().getAnnotations().containsKey(OWNER))) {
        client.configMaps().inNamespace(key.namespace()).withName(key.name())
            .edit(cm -> new ConfigMapBuilder(cm).editMetadata().addToAnnotations(OWNER, "ctk")
                .endMetadata().build());
      }
      return Result.done();
    };
  }

  /**
   * A hot loop, bounded so that counts are exact: bumps the round annotation on every reconcile
   * until round {@code rounds}, so each write triggers the next reconcile.
   */
  static Reconciler bumpRound(KubernetesClient client, int rounds) {
    return key -> {
      ConfigMap live = client.configMaps().inNamespace(key.namespace()).withName(key.name()).get();
      int round = live == null || live.getMetadata().getAnnotations() == null ? 0
          : Integer.parseInt(live.getMetadata().getAnnotations().getOrDefault(ROUND, "0"));
      if (live != null && round < rounds) {
        client.configMaps().inNamespace(key.namespace()).withName(key.name())
            .edit(cm -> new ConfigMapBuilder(cm).editMetadata()
                .addToAnnotations(ROUND, Integer.toString(round + 1)).endMetadata().build());
      }
      return Result.done();
    };
  }

  static ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default")
        .endMetadata().build();
  }

  /** The changing writes and injections of the journal that {@code filter} keeps, in order. */
  static List<ApiRequestRecord> changes(RequestJournal journal,
      Predicate<ApiRequestRecord> filter) {
    return journal.all().stream()
        .filter(r -> r.injected() || (r.isWrite() && r.succeeded() && r.changed()))
        .filter(filter).collect(Collectors.toList());
  }

  /** The summaries of the writes as a message lists them: at most 10, then "... and N more". */
  static String lines(List<ApiRequestRecord> writes) {
    StringBuilder text = new StringBuilder();
    writes.stream().limit(10).forEach(w -> text.append("  ").append(w.summary()).append('\n'));
    if (writes.size() > 10) {
      text.append("  ... and ").append(writes.size() - 10).append(" more\n");
    }
    return text.toString().stripTrailing();
  }

  static boolean await(CountDownLatch latch) {
    try {
      return latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

}
