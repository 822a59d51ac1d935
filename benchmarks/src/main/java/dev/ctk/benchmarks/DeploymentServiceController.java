package dev.ctk.benchmarks;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.Reconciler;
import dev.ctk.controller.Result;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;

/**
 * The controller of benchmark 4, the same shape as the nginx example of {@code examples/} (which the benchmarks do
 * not depend on, to keep the Java Operator SDK and the Kubernetes Java client out of the uber jar): Deployments
 * labelled {@code app=nginx} get a Service of the same name, owned by the Deployment, exposing its container
 * ports. Two informers (Deployments, and Services mapped to their owner) feed one ctk work queue.
 *
 * <pre>{@code
 * try (Controller controller = DeploymentServiceController.create(client).start()) {
 *   client.apps().deployments().resource(deployment).create();
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
public final class DeploymentServiceController implements Reconciler {

  private final KubernetesClient client;
  private final SharedIndexInformer<Deployment> deployments;
  private final SharedIndexInformer<Service> services;

  private DeploymentServiceController(KubernetesClient client) {
    this.client = client;
    this.deployments = client.apps().deployments().inAnyNamespace().runnableInformer(0);
    this.services = client.services().inAnyNamespace().runnableInformer(0);
  }

  /**
   * The controller, not started.
   *
   * @param client the client it reads and writes with
   * @return the controller
   */
  public static Controller create(KubernetesClient client) {
    DeploymentServiceController reconciler = new DeploymentServiceController(client);
    return Controller.builder("bench-nginx-service")
        .watch(reconciler.deployments, EventHandlers.enqueueObject())
        .watch(reconciler.services, EventHandlers.enqueueOwner("apps", "Deployment", true))
        .withReconciler(reconciler)
        .build();
  }

  @Override
  public Result reconcile(ObjectKey key) {
    Deployment deployment = deployments.getIndexer().getByKey(key.toString());
    if (deployment == null || deployment.getMetadata().getDeletionTimestamp() != null
        || !"nginx".equals(deployment.getMetadata().getLabels().get("app"))) {
      return Result.done();
    }
    if (services.getIndexer().getByKey(key.toString()) == null) {
      client.services().inNamespace(key.namespace()).resource(serviceFor(deployment)).create();
    }
    return Result.done();
  }

  private static Service serviceFor(Deployment deployment) {
    List<ServicePort> ports = new ArrayList<>();
    deployment.getSpec().getTemplate().getSpec().getContainers().forEach(container -> {
      for (ContainerPort port : container.getPorts()) {
        ports.add(new ServicePortBuilder().withName(port.getName()).withPort(port.getContainerPort())
            .withTargetPort(new IntOrString(port.getContainerPort())).withProtocol("TCP").build());
      }
    });
    return new ServiceBuilder()
        .withNewMetadata()
          .withName(deployment.getMetadata().getName())
          .withNamespace(deployment.getMetadata().getNamespace())
          .addToLabels("app", "nginx")
          .addNewOwnerReference()
            .withApiVersion("apps/v1").withKind("Deployment").withName(deployment.getMetadata().getName())
            .withUid(deployment.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true)
          .endOwnerReference()
        .endMetadata()
        .withNewSpec()
          .withSelector(deployment.getSpec().getSelector().getMatchLabels())
          .withPorts(ports)
        .endSpec()
        .build();
  }
}
