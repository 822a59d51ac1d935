package dev.ctk.assertions;

import dev.ctk.controller.ControllerView;
import dev.ctk.controller.WorkQueueView;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * The entry point of ctk's AssertJ assertions: one {@code assertThat} per type. Static-import it next
 * to AssertJ's {@code Assertions.assertThat}; Java picks the most specific overload.
 *
 * <pre>{@code
 * import static dev.ctk.assertions.ControllerAssertions.assertThat;
 * import static java.time.Duration.ofSeconds;
 *
 * assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/web");
 * assertThat(controller).workQueue().within(ofSeconds(5)).isEmpty();
 * assertThat(informer).hasSynced().containsKey("default/web");
 * assertThat(probe).within(ofSeconds(5)).isIdle();   // any ControllerView, e.g. a ControllerProbe
 * }</pre>
 *
 * @since 0.1.0
 */
public final class ControllerAssertions {

  private ControllerAssertions() {}

  /**
   * Assertions on a controller: cache sync, reconcile outcomes per key, its work queue. Any {@link
   * ControllerView}: ctk's {@code Controller}, a {@code ControllerProbe} on a hand-written controller,
   * or the views that ctk-josdk and ctk-client-java give of their frameworks' controllers.
   *
   * @param controller the controller
   * @return an assertion that checks at once; {@code within(..)} makes it wait
   */
  public static ControllerAssert assertThat(ControllerView controller) {
    return new ControllerAssert(controller);
  }

  /**
   * Assertions on a work queue: emptiness, depth, keys. Any {@link WorkQueueView}: ctk's {@code
   * WorkQueue}, or the queue of a {@link ControllerView}.
   *
   * @param queue the queue
   * @return an assertion that checks at once; {@code within(..)} makes it wait
   */
  public static WorkQueueAssert assertThat(WorkQueueView queue) {
    return new WorkQueueAssert(queue);
  }

  /**
   * Assertions on an informer: sync and the keys in its cache.
   *
   * @param informer the informer
   * @return an assertion that checks at once; {@code within(..)} makes it wait
   */
  public static InformerAssert assertThat(SharedIndexInformer<?> informer) {
    return new InformerAssert(informer);
  }

  /**
   * Assertions on the API requests a fake cluster answered: how many match a pattern, no update
   * without a resourceVersion, no list without a selector.
   *
   * <pre>{@code
   * assertThat(cluster.requests()).since(afterSetup)
   *     .hasExactly(1, RequestPattern.patch("ConfigMap").subresource("status"));
   * }</pre>
   *
   * @param journal the journal, {@code FakeCluster.requests()}
   * @return an assertion that checks at once
   */
  public static RequestJournalAssert assertThat(dev.ctk.fake.RequestJournal journal) {
    return new RequestJournalAssert(journal);
  }
}
