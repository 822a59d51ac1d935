package dev.ctk.examples.webapp;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;

/**
 * The address of a web app: a ClusterIP Service of the same name, port 80 to the pods' {@code http}
 * port. A JOSDK dependent resource with JOSDK's default settings: created by a server-side apply that
 * carries {@code metadata.resourceVersion: "1"} (so that it fails if the Service already exists),
 * updated by server-side apply, owned by the web app.
 *
 * @since 0.1.0
 */
public class WebAppService extends CRUDKubernetesDependentResource<Service, WebApp> {

  /** Created by JOSDK for {@link WebAppReconciler}'s workflow. */
  public WebAppService() {
    super(Service.class);
  }

  @Override
  protected Service desired(WebApp webApp, Context<WebApp> context) {
    return new ServiceBuilder()
        .withNewMetadata()
          .withName(webApp.getMetadata().getName())
          .withNamespace(webApp.getMetadata().getNamespace())
          .withLabels(Labels.of(webApp))
        .endMetadata()
        .withNewSpec()
          .withSelector(Labels.selector(webApp))
          .addNewPort()
            .withName("http").withProtocol("TCP").withPort(80).withTargetPort(new IntOrString("http"))
          .endPort()
        .endSpec()
        .build();
  }
}
