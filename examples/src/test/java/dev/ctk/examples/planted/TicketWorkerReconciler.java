package dev.ctk.examples.planted;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.net.HttpURLConnection;
import java.util.Map;

/**
 * {@link TicketWorkerController}'s bug in a Java Operator SDK reconciler: gives every ticket (a ConfigMap labelled
 * {@code examples.ctk.dev/ticket=true}) one worker ConfigMap and records the worker's name on the ticket, two writes
 * per reconcile, sent from JOSDK's executor threads.
 *
 * <p><b>Planted bug</b>: the worker gets a generated name and "does the ticket have a worker?" is read from the
 * ticket's annotation, so a crash between the two writes leaves an unrecorded worker and the restarted operator
 * creates a second one. <b>Correct:</b> the worker's name is derived from the ticket's; a repeated create answers 409,
 * which means done.
 */
@ControllerConfiguration(name = TicketWorkerReconciler.NAME,
    informer = @Informer(labelSelector = TicketWorkerController.TICKET_LABEL + "=true"))
final class TicketWorkerReconciler implements Reconciler<ConfigMap> {

  static final String NAME = "ticket-worker-josdk";

  private final Variant variant;

  TicketWorkerReconciler(Variant variant) {
    this.variant = variant;
  }

  @Override
  public UpdateControl<ConfigMap> reconcile(ConfigMap ticket, Context<ConfigMap> context) {
    Map<String, String> annotations = ticket.getMetadata().getAnnotations();
    if (annotations != null && annotations.containsKey(TicketWorkerController.WORKER_ANNOTATION)) {
      return UpdateControl.noUpdate();
    }
    KubernetesClient client = context.getClient();
    ConfigMapBuilder worker = new ConfigMapBuilder().withNewMetadata()
        .withNamespace(ticket.getMetadata().getNamespace())
        .addNewOwnerReference().withApiVersion("v1").withKind("ConfigMap").withName(ticket.getMetadata().getName())
          .withUid(ticket.getMetadata().getUid()).withController(true).endOwnerReference()
        .endMetadata().withData(Map.of("ticket", ticket.getMetadata().getName()));
    String name;
    if (variant == Variant.PLANTED_BUG) {
      name = client.resource(worker.editMetadata().withGenerateName(ticket.getMetadata().getName() + "-worker-")
          .endMetadata().build()).create().getMetadata().getName();
    } else {
      name = ticket.getMetadata().getName() + "-worker";
      try {
        client.resource(worker.editMetadata().withName(name).endMetadata().build()).create();
      } catch (KubernetesClientException e) {
        if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
          throw e;
        }
      }
    }
    client.configMaps().inNamespace(ticket.getMetadata().getNamespace()).withName(ticket.getMetadata().getName())
        .edit(t -> new ConfigMapBuilder(t).editMetadata()
            .addToAnnotations(TicketWorkerController.WORKER_ANNOTATION, name).endMetadata().build());
    return UpdateControl.noUpdate();
  }
}
