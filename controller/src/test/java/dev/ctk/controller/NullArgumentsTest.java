package dev.ctk.controller;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A null argument fails at once, naming the method and the argument. */
class NullArgumentsTest {

  private static final StubInformer<ConfigMap> CONFIG_MAPS = new StubInformer<>(ConfigMap.class);

  static Stream<Arguments> nullArguments() {
    WorkQueue<String> queue = WorkQueue.<String>builder().withName("q").build();
    Controller controller = Controller.builder("cm")
        .watch(CONFIG_MAPS.informer(), EventHandlers.enqueueObject())
        .withReconciler(key -> Result.done())
        .build();
    ControllerProbe probe = ControllerProbe.create("p");
    ObjectKey web = ObjectKey.of("default", "web");
    return Stream.of(
        nulls(() -> ControllerProbe.builder(null), "ControllerProbe.builder: name is null"),
        nulls(() -> ControllerProbe.builder("p").withVocabulary(null),
            "ControllerProbe.Builder.withVocabulary: vocabulary is null"),
        nulls(() -> ControllerProbe.builder("p").withTimeSource(null),
            "ControllerProbe.Builder.withTimeSource: time is null"),
        nulls(() -> ControllerProbe.builder("p").withRunningState(null),
            "ControllerProbe.Builder.withRunningState: runningState is null"),
        nulls(() -> probe.watch(null), "ControllerProbe.watch: informer is null (probe \"p\")"),
        nulls(() -> probe.watchCaches(null),
            "ControllerProbe.watchCaches: states is null (probe \"p\")"),
        nulls(() -> probe.observe(null), "ControllerProbe.observe: queue is null (probe \"p\")"),
        nulls(() -> probe.observe(new java.util.concurrent.LinkedBlockingQueue<>(), null),
            "ControllerProbe.observe: keyOf is null (probe \"p\")"),
        nulls(() -> probe.added(null), "ControllerProbe.added: key is null (probe \"p\")"),
        nulls(() -> probe.addedAfter(null, java.time.Duration.ZERO),
            "ControllerProbe.addedAfter: key is null (probe \"p\")"),
        nulls(() -> probe.addedAfter(web, null),
            "ControllerProbe.addedAfter: delay is null (probe \"p\")"),
        nulls(() -> probe.addedRateLimited(null, java.time.Duration.ZERO),
            "ControllerProbe.addedRateLimited: key is null (probe \"p\")"),
        nulls(() -> probe.addedRateLimited(web, null),
            "ControllerProbe.addedRateLimited: delay is null (probe \"p\")"),
        nulls(() -> probe.removed(null), "ControllerProbe.removed: key is null (probe \"p\")"),
        nulls(() -> probe.reconcileStarted(null),
            "ControllerProbe.reconcileStarted: key is null (probe \"p\")"),
        nulls(() -> probe.reconcileStarted(null, 1),
            "ControllerProbe.reconcileStarted: key is null (probe \"p\")"),
        nulls(() -> probe.reconcile(null, () -> { }),
            "ControllerProbe.reconcile: key is null (probe \"p\")"),
        nulls(() -> probe.reconcile("default/web", null),
            "ControllerProbe.reconcile: body is null (probe \"p\")"),
        nulls(() -> probe.reconcileStarted(web).requeuedAfter(null),
            "Reconciliation.requeuedAfter: delay is null (reconcile of default/web)"),
        nulls(() -> probe.reconcileStarted(web).failed(null),
            "Reconciliation.failed: error is null (reconcile of default/web)"),
        nulls(() -> probe.reconcileLog(null), "ControllerView.reconcileLog: key is null"),
        nulls(() -> Vocabulary.CTK.outcome(null), "Vocabulary.outcome: outcome is null"),
        nulls(() -> Vocabulary.CTK.summary(null), "Vocabulary.summary: record is null"),
        nulls(() -> Controller.builder(null), "Controller.builder: name is null"),
        nulls(() -> Controller.builder("cm").withReconciler(null),
            "Controller.Builder.withReconciler: reconciler is null"),
        nulls(() -> Controller.builder("cm").watch(null, EventHandlers.enqueueObject()),
            "Controller.Builder.watch: informer is null (controller \"cm\")"),
        nulls(() -> Controller.builder("cm").watch(CONFIG_MAPS.informer(), null),
            "Controller.Builder.watch: handler is null (controller \"cm\"). Use e.g. "
                + "EventHandlers.enqueueObject()."),
        nulls(() -> Controller.builder("cm").watch(CONFIG_MAPS.informer(),
            EventHandlers.enqueueObject(), EventPredicate.generationChanged(), null),
            "Controller.Builder.watch: predicate 2 of 2 is null (controller \"cm\")"),
        nulls(() -> Controller.builder("cm").withTimeSource(null),
            "Controller.Builder.withTimeSource: time is null"),
        nulls(() -> Controller.builder("cm").withRateLimiter(null),
            "Controller.Builder.withRateLimiter: rateLimiter is null"),
        nulls(() -> Controller.builder("cm").withCacheSyncTimeout(null),
            "Controller.Builder.withCacheSyncTimeout: timeout is null"),
        nulls(() -> Controller.builder("cm").withShutdownTimeout(null),
            "Controller.Builder.withShutdownTimeout: timeout is null"),
        nulls(() -> Controller.builder("cm").addReconcileListener(null),
            "Controller.Builder.addReconcileListener: listener is null"),
        nulls(() -> controller.addReconcileListener(null),
            "Controller.addReconcileListener: listener is null"),
        nulls(() -> controller.reconcileLog(null), "Controller.reconcileLog: key is null"),
        nulls(() -> queue.add(null), "WorkQueue.add: key is null (work queue \"q\")"),
        nulls(() -> queue.addAfter(null, java.time.Duration.ZERO),
            "WorkQueue.addAfter: key is null (work queue \"q\")"),
        nulls(() -> queue.addAfter("a", null),
            "WorkQueue.addAfter: delay is null (work queue \"q\", key a)"),
        nulls(() -> queue.addRateLimited(null),
            "WorkQueue.addRateLimited: key is null (work queue \"q\")"),
        nulls(() -> queue.poll(null), "WorkQueue.poll: timeout is null (work queue \"q\")"),
        nulls(() -> queue.shutDownWithDrain(null),
            "WorkQueue.shutDownWithDrain: timeout is null (work queue \"q\")"),
        nulls(() -> queue.addListener(null),
            "WorkQueue.addListener: listener is null (work queue \"q\")"),
        nulls(() -> WorkQueue.builder().withName(null), "WorkQueue.Builder.withName: name is null"),
        nulls(() -> WorkQueue.builder().withTimeSource(null),
            "WorkQueue.Builder.withTimeSource: time is null"),
        nulls(() -> WorkQueue.builder().withRateLimiter(null),
            "WorkQueue.Builder.withRateLimiter: rateLimiter is null"),
        nulls(() -> Result.requeueAfter(null), "Result.requeueAfter: delay is null"),
        nulls(() -> EventHandlers.enqueueOwner(null, "ReplicaSet", true),
            "EventHandlers.enqueueOwner: ownerApiGroup is null (use \"\" for the core group)"),
        nulls(() -> EventHandlers.enqueueOwner("apps", null, true),
            "EventHandlers.enqueueOwner: ownerKind is null"),
        nulls(() -> EventHandlers.enqueueClusterScopedOwner(null, "Node", true),
            "EventHandlers.enqueueClusterScopedOwner: ownerApiGroup is null (use \"\" for the core "
                + "group)"),
        nulls(() -> EventHandlers.enqueueClusterScopedOwner("", null, true),
            "EventHandlers.enqueueClusterScopedOwner: ownerKind is null"),
        nulls(() -> EventHandlers.enqueueMapped(null), "EventHandlers.enqueueMapped: mapper is null"),
        nulls(() -> EventPredicate.labelSelector(null),
            "EventPredicate.labelSelector: matchLabels is null"),
        nulls(() -> EventPredicate.generationChanged().and(null), "EventPredicate.and: other is null"),
        nulls(() -> EventPredicate.generationChanged().or(null), "EventPredicate.or: other is null"),
        nulls(() -> EventPredicate.not(null), "EventPredicate.not: predicate is null"),
        nulls(() -> RateLimiter.exponential(null, java.time.Duration.ofSeconds(1)),
            "RateLimiter.exponential: base is null"),
        nulls(() -> RateLimiter.exponential(java.time.Duration.ofSeconds(1), null),
            "RateLimiter.exponential: max is null"),
        nulls(() -> RateLimiter.bucket(10, 100, null), "RateLimiter.bucket: time is null"),
        nulls(() -> RateLimiter.maxOf(RateLimiter.exponential(java.time.Duration.ofMillis(1),
            java.time.Duration.ofSeconds(1)), null), "RateLimiter.maxOf: limiter 2 of 2 is null"),
        nulls(() -> RateLimiter.defaultControllerRateLimiter(null),
            "RateLimiter.defaultControllerRateLimiter: time is null"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("nullArguments")
  void a_null_argument_is_named_in_the_message(ThrowingCallable call, String message) {
    assertThatThrownBy(call).isInstanceOf(NullPointerException.class).hasMessage(message);
  }

  private static Arguments nulls(ThrowingCallable call, String message) {
    return Arguments.of(call, message);
  }
}
