package dev.ctk.examples.labeller;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.EventPredicate;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.Reconciler;
import dev.ctk.controller.Result;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.function.UnaryOperator;

/**
 * Keeps the label {@code hello=world} on every ReplicaSet. It watches ReplicaSets and also Pods, which
 * enqueue the ReplicaSet that controls them: a burst of Pod events for one ReplicaSet is folded by the work
 * queue into one reconcile.
 *
 * <pre>{@code
 * Controller controller = ReplicaSetLabeller.create(client);
 * controller.start();
 * }</pre>
 *
 * @since 0.1.0
 */
public final class ReplicaSetLabeller implements Reconciler {

  /** Label key this controller maintains. */
  public static final String LABEL_KEY = "hello";
  /** Label value this controller maintains. */
  public static final String LABEL_VALUE = "world";

  private final KubernetesClient client;
  private final SharedIndexInformer<ReplicaSet> replicaSets;

  private ReplicaSetLabeller(KubernetesClient client) {
    this.client = client;
    this.replicaSets = client.apps().replicaSets().inAnyNamespace().runnableInformer(0);
  }

  /**
   * Builds the controller.
   *
   * @param client a client for the cluster to control
   * @return a controller, not started
   */
  public static Controller create(KubernetesClient client) {
    return create(client, UnaryOperator.identity());
  }

  /**
   * Builds the controller with its reconciler wrapped, for instance by a test that wants to hold a
   * reconcile open. Production code uses {@link #create(KubernetesClient)}.
   *
   * @param client a client for the cluster to control
   * @param decorator wraps the reconciler
   * @return a controller, not started
   */
  public static Controller create(KubernetesClient client, UnaryOperator<Reconciler> decorator) {
    ReplicaSetLabeller labeller = new ReplicaSetLabeller(client);
    SharedIndexInformer<Pod> pods = client.pods().inAnyNamespace().runnableInformer(0);
    return Controller.builder("replicaset-labeller")
        // our own label patch comes back as an update; only updates that lack the label need work
        .watch(labeller.replicaSets, EventHandlers.enqueueObject(), lacksLabelOnUpdate())
        .watch(pods, EventHandlers.enqueueOwner("apps", "ReplicaSet", true))
        .withReconciler(decorator.apply(labeller))
        .build();
  }

  private static EventPredicate<ReplicaSet> lacksLabelOnUpdate() {
    return new EventPredicate<>() {
      @Override
      public boolean onUpdate(ReplicaSet oldObj, ReplicaSet newObj) {
        return !hasLabel(newObj);
      }
    };
  }

  @Override
  public Result reconcile(ObjectKey key) {
    ReplicaSet replicaSet = replicaSets.getIndexer().getByKey(key.toString());
    if (replicaSet == null || hasLabel(replicaSet)) {
      return Result.done();
    }
    client.apps().replicaSets().inNamespace(key.namespace()).withName(key.name())
        .edit(rs -> {
          java.util.Map<String, String> labels = rs.getMetadata().getLabels() == null
              ? new java.util.LinkedHashMap<>() : new java.util.LinkedHashMap<>(rs.getMetadata().getLabels());
          labels.put(LABEL_KEY, LABEL_VALUE);
          rs.getMetadata().setLabels(labels);
          return rs;
        });
    return Result.done();
  }

  static boolean hasLabel(HasMetadata object) {
    return object.getMetadata().getLabels() != null
        && LABEL_VALUE.equals(object.getMetadata().getLabels().get(LABEL_KEY));
  }
}
