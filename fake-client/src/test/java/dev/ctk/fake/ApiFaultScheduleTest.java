package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.values.FaultFiring;
import dev.ctk.fake.values.RequestPattern;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** When rules fire: once, times, onCall, until removed, seeded probability, order of rules; invalid arguments. */
@ParameterizedClass(name = "{0}")
@EnumSource(ClientTransport.class)
class ApiFaultScheduleTest {

  @Parameter
  ClientTransport transport;

  private static final String WEB = "/api/v1/namespaces/default/configmaps/web";

  private FakeCluster cluster;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClientTransport(transport)
        .withObjects(configMap("web", Map.of())).withRandomSeed(7).build();
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  private static List<Integer> getCodes(FakeCluster cluster, int calls) {
    RawApi api = new RawApi(cluster.url());
    List<Integer> codes = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      codes.add(api.get(WEB).code());
    }
    return codes;
  }

  private FaultRule rule(java.util.function.UnaryOperator<ApiFaults.RuleBuilder> schedule) {
    return schedule.apply(cluster.faults().when(RequestPattern.get("ConfigMap"))).answer(ApiFault.serviceUnavailable());
  }

  @Test
  void once_firesOnTheFirstMatchingCall() {
    FaultRule r = rule(ApiFaults.RuleBuilder::once);
    assertThat(getCodes(cluster, 3)).containsExactly(503, 200, 200);
    assertThat(r.isExhausted()).isTrue();
    assertThat(r.matchedCalls()).isEqualTo(3);
    assertThat(r.toString()).isEqualTo("when get ConfigMap: once -> 503 ServiceUnavailable");
  }

  @Test
  void times_firesOnTheFirstNCalls() {
    FaultRule r = rule(b -> b.times(2));
    assertThat(getCodes(cluster, 4)).containsExactly(503, 503, 200, 200);
    assertThat(r.firings()).hasSize(2);
    assertThat(r.toString()).isEqualTo("when get ConfigMap: 2 times -> 503 ServiceUnavailable");
  }

  @Test
  void onCall_alone_firesOnlyOnThatCall() {
    FaultRule r = rule(b -> b.onCall(2));
    assertThat(getCodes(cluster, 4)).containsExactly(200, 503, 200, 200);
    assertThat(r.toString()).isEqualTo("when get ConfigMap: once, on the 2nd matching call -> 503 "
        + "ServiceUnavailable");
  }

  @Test
  void onCallWithTimes_firesOnCallsNToNPlusTimesMinus1() {
    FaultRule r = rule(b -> b.onCall(2).times(2));
    assertThat(getCodes(cluster, 5)).containsExactly(200, 503, 503, 200, 200);
    assertThat(r.toString()).isEqualTo("when get ConfigMap: from the 2nd matching call, 2 times -> 503 "
        + "ServiceUnavailable");
  }

  @Test
  void withoutTimes_firesUntilRemoved() {
    FaultRule r = rule(b -> b);
    assertThat(getCodes(cluster, 3)).containsExactly(503, 503, 503);
    assertThat(r.isExhausted()).isFalse();
    assertThat(cluster.faults().rules()).containsExactly(r);
    r.remove();
    assertThat(r.isRemoved()).isTrue();
    assertThat(cluster.faults().rules()).isEmpty();
    assertThat(getCodes(cluster, 2)).containsExactly(200, 200);
    assertThat(r.firings()).hasSize(3);
    assertThat(r.toString()).isEqualTo("when get ConfigMap: until removed -> 503 ServiceUnavailable");
  }

  @Test
  void aRuleKeepsItsLast1000Firings_andCountsEveryFiring() {
    FaultRule r = rule(b -> b.times(FaultRule.FIRING_LIMIT + 2));
    long before = cluster.requests().lastSequence();

    List<Integer> codes = getCodes(cluster, FaultRule.FIRING_LIMIT + 5);

    assertThat(codes).filteredOn(code -> code == 503).hasSize(FaultRule.FIRING_LIMIT + 2);
    assertThat(codes.subList(FaultRule.FIRING_LIMIT + 2, codes.size())).containsExactly(200, 200, 200);
    assertThat(r.fired()).as("the count is exact").isEqualTo(FaultRule.FIRING_LIMIT + 2);
    assertThat(r.isExhausted()).isTrue();
    assertThat(r.matchedCalls()).isEqualTo(FaultRule.FIRING_LIMIT + 5);
    assertThat(r.firings()).as("the newest 1000: the first two are forgotten").hasSize(1000)
        .extracting(FaultFiring::sequence).startsWith(before + 3, before + 4)
        .endsWith(before + FaultRule.FIRING_LIMIT + 2);
    assertThat(cluster.faults().firings()).as("the cluster's list keeps 10,000").hasSize(FaultRule.FIRING_LIMIT + 2);
  }

  @Test
  void aWherePredicate_runsWithoutTheFaultLock_soAnotherThreadCanReadTheRulesMeanwhile() {
    List<String> seenFromThePredicate = new CopyOnWriteArrayList<>();
    RequestPattern pattern = RequestPattern.get("ConfigMap").where("after a look at the rules", record -> {
      // another thread reads the rules while this predicate runs: it would wait for the lock if the engine held it
      CompletableFuture<String> rules = CompletableFuture.supplyAsync(() -> cluster.faults().toString());
      try {
        seenFromThePredicate.add(rules.get(10, TimeUnit.SECONDS));
      } catch (TimeoutException e) {
        seenFromThePredicate.add("blocked: the fault rules' lock is held while predicates run");
      } catch (InterruptedException | ExecutionException e) {
        seenFromThePredicate.add("failed: " + e);
      }
      return true;
    });
    FaultRule r = cluster.faults().when(pattern).once().answer(ApiFault.conflict());

    assertThat(getCodes(cluster, 2)).containsExactly(409, 200);

    assertThat(seenFromThePredicate).containsExactly(
        "1 fault rule: [when get ConfigMap after a look at the rules: once -> 409 Conflict]",
        "1 fault rule: [when get ConfigMap after a look at the rules: once -> 409 Conflict]");
    assertThat(r.matchedCalls()).isEqualTo(2);
  }

  @Test
  void aRuleRemovedWhileARequestIsMatched_doesNotCountOrFireOnIt() {
    AtomicReference<FaultRule> second = new AtomicReference<>();
    FaultRule first = cluster.faults().when(RequestPattern.get("ConfigMap").where("removing the 2nd rule", record -> {
      second.get().remove();
      return false;
    })).answer(ApiFault.conflict());
    second.set(cluster.faults().when(RequestPattern.get("ConfigMap")).answer(ApiFault.serviceUnavailable()));

    assertThat(getCodes(cluster, 1)).containsExactly(200);

    assertThat(second.get().matchedCalls()).isZero();
    assertThat(second.get().firings()).isEmpty();
    assertThat(first.matchedCalls()).isZero();
  }

  @Test
  void rulesAreEvaluatedInOrder_theFirstThatFiresWins_laterOnesStillCount() {
    FaultRule first = cluster.faults().when(RequestPattern.get("ConfigMap")).once().answer(ApiFault.conflict());
    FaultRule second = cluster.faults().when(RequestPattern.verbs("get")).onCall(2)
        .answer(ApiFault.internalError("boom"));
    assertThat(getCodes(cluster, 3)).containsExactly(409, 500, 200);
    assertThat(first.matchedCalls()).isEqualTo(3);
    assertThat(second.matchedCalls()).isEqualTo(3);
    assertThat(cluster.faults().firings()).extracting(FaultFiring::rule).containsExactly(
        "when get ConfigMap: once -> 409 Conflict",
        "when get of any kind: once, on the 2nd matching call -> 500 InternalError: boom");
  }

  @Test
  void aCallAnEarlierRuleTook_doesNotUseUpAFiring() {
    cluster.faults().when(RequestPattern.get("ConfigMap")).once().answer(ApiFault.conflict());
    cluster.faults().when(RequestPattern.get("ConfigMap")).once().answer(ApiFault.serviceUnavailable());
    assertThat(getCodes(cluster, 3)).containsExactly(409, 503, 200);
  }

  @Test
  void probability_withTheRuleSeed_drawsFromJavaUtilRandom() {
    FaultRule r = cluster.faults().when(RequestPattern.get("ConfigMap")).withProbability(0.5).withSeed(42)
        .answer(ApiFault.serviceUnavailable());
    Random random = new Random(42);
    List<Integer> expected = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      expected.add(random.nextDouble() < 0.5 ? 503 : 200);
    }
    assertThat(expected).contains(200, 503);
    assertThat(getCodes(cluster, 20)).isEqualTo(expected);
    assertThat(r.toString()).isEqualTo("when get ConfigMap: until removed, with probability 0.5 (seed 42) -> 503 "
        + "ServiceUnavailable");
  }

  @Test
  void probability_withTheClusterSeed_givesTheSameFiringsTwice() {
    List<List<Integer>> runs = new ArrayList<>();
    for (int run = 0; run < 2; run++) {
      try (FakeCluster c = FakeCluster.builder().withClientTransport(transport)
          .withObjects(configMap("web", Map.of())).withRandomSeed(99).build()) {
        c.faults().when(RequestPattern.get("ConfigMap")).withProbability(0.3).times(4)
            .answer(ApiFault.serviceUnavailable());
        runs.add(getCodes(c, 30));
      }
    }
    assertThat(runs.get(0)).isEqualTo(runs.get(1));
    assertThat(runs.get(0)).filteredOn(code -> code == 503).hasSize(4);
  }

  @Test
  void probabilityZero_neverFires_andOne_alwaysFires() {
    FaultRule never = cluster.faults().when(RequestPattern.get("ConfigMap")).withProbability(0)
        .answer(ApiFault.conflict());
    assertThat(getCodes(cluster, 3)).containsExactly(200, 200, 200);
    never.remove();
    cluster.faults().when(RequestPattern.get("ConfigMap")).withProbability(1).answer(ApiFault.conflict());
    assertThat(getCodes(cluster, 2)).containsExactly(409, 409);
  }

  @Test
  void clear_removesEveryRuleAndForgetsFirings() {
    FaultRule r = rule(b -> b);
    getCodes(cluster, 1);
    cluster.faults().clear();
    assertThat(r.isRemoved()).isTrue();
    assertThat(cluster.faults().rules()).isEmpty();
    assertThat(cluster.faults().firings()).isEmpty();
    assertThat(cluster.faults().toString()).isEqualTo("no fault rules");
    assertThat(getCodes(cluster, 1)).containsExactly(200);
  }

  @Test
  void rulesMatchKindNamespaceNameAndSubresource() {
    cluster.faults().when(RequestPattern.get("ConfigMap").named("default", "other")).answer(ApiFault.conflict());
    cluster.faults().when(RequestPattern.get("configmaps").inNamespace("kube-system")).answer(ApiFault.conflict());
    assertThat(getCodes(cluster, 1)).containsExactly(200);
    assertThat(new RawApi(cluster.url()).get("/api/v1/namespaces/default/configmaps/other").code()).isEqualTo(409);
    assertThat(new RawApi(cluster.url()).get("/api/v1/namespaces/kube-system/configmaps/x").code()).isEqualTo(409);
  }

  @Test
  void rulesMatchFieldManagerAndPatchType() {
    // GIVEN a 409 for server-side applies of ConfigMaps by the field manager "ctk-a" only
    cluster.faults().when(RequestPattern.patch("ConfigMap").fieldManager("ctk-a").patchType("apply"))
        .answer(ApiFault.conflict());
    io.fabric8.kubernetes.api.model.ConfigMap web = new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
        .withNewMetadata().withName("web").withNamespace("default").endMetadata()
        .addToData("k", "v").build();
    // WHEN / THEN the other field manager applies; "ctk-a" is refused with 409
    cluster.client().resource(web).fieldManager("ctk-b").forceConflicts().serverSideApply();
    assertThatThrownBy(() -> cluster.client().resource(web).fieldManager("ctk-a").forceConflicts()
        .serverSideApply())
        .isInstanceOfSatisfying(io.fabric8.kubernetes.client.KubernetesClientException.class,
            e -> assertThat(e.getCode()).isEqualTo(409));
    assertThat(cluster.faults().firings()).singleElement()
        .satisfies(f -> assertThat(f.request()).contains("patch configmaps default/web")
            .contains("apply, fieldManager=ctk-a"));
  }

  @Test
  void invalidArguments_failAtOnce_withMessages() {
    ApiFaults faults = cluster.faults();
    assertThatThrownBy(() -> faults.when(null)).isInstanceOf(NullPointerException.class)
        .hasMessage("ApiFaults.when: pattern is null");
    ApiFaults.RuleBuilder builder = faults.when(RequestPattern.any());
    assertThatThrownBy(() -> builder.onCall(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ApiFaults.RuleBuilder.onCall: calls are counted from 1, was 0. Use onCall(1) for the first "
            + "matching call.");
    assertThatThrownBy(() -> builder.times(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ApiFaults.RuleBuilder.times: a rule fires at least once, was -1. Leave times out for a rule "
            + "that fires until removed.");
    assertThatThrownBy(() -> builder.withProbability(1.5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ApiFaults.RuleBuilder.withProbability: a probability is between 0 and 1, was 1.5. Use e.g. "
            + "withProbability(0.3) for 30% of the matching calls.");
    assertThatThrownBy(() -> builder.withProbability(Double.NaN)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ApiFaults.RuleBuilder.withProbability: a probability is between 0 and 1, was NaN. Use e.g. "
            + "withProbability(0.3) for 30% of the matching calls.");
    assertThatThrownBy(() -> builder.answer(null)).isInstanceOf(NullPointerException.class)
        .hasMessage("ApiFaults.RuleBuilder.answer: fault is null");
    builder.once();
    assertThatThrownBy(builder::once).isInstanceOf(IllegalStateException.class)
        .hasMessage("ApiFaults.RuleBuilder.times/once was already set to 1 for \"any request of any kind\"; each "
            + "setting is given once.");
    builder.answer(ApiFault.conflict());
    assertThatThrownBy(() -> builder.answer(ApiFault.conflict())).isInstanceOf(IllegalStateException.class)
        .hasMessage("ApiFaults.RuleBuilder.answer(..) was already called for \"any request of any kind\"; a builder "
            + "installs one rule. Start another with faults.when(..).");

    assertThatThrownBy(() -> ApiFault.delay(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ApiFault.delay: delay must be positive, was PT0S. Use a positive Duration such as "
            + "Duration.ofMillis(200).");
    assertThatThrownBy(() -> ApiFault.delay(null)).isInstanceOf(NullPointerException.class)
        .hasMessage("ApiFault.delay: delay is null");
    assertThatThrownBy(() -> ApiFault.tooManyRequests(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ApiFault.tooManyRequests: retryAfter must not be negative, was PT-1S. Use Duration.ofSeconds(1) "
            + "or more.");
    assertThatThrownBy(() -> ApiFault.status(200, "OK", "fine")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ApiFault.status: code must be an HTTP error code between 400 and 599, was 200. Use "
            + "ApiFault.delay(..) to answer normally after a pause.");
    assertThatThrownBy(() -> ApiFault.invalid(null)).isInstanceOf(NullPointerException.class)
        .hasMessage("ApiFault.invalid: message is null");
    assertThatThrownBy(() -> ApiFault.internalError(null)).isInstanceOf(NullPointerException.class)
        .hasMessage("ApiFault.internalError: message is null");
  }
}
