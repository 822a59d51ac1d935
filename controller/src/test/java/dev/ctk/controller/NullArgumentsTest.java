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
    return Stream.of(
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
