package dev.ctk.examples.webapp;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;

/**
 * The address of a web app: a ClusterIP Service of the same name, port 80 to the pods' {@code http}
 * port. A JOSDK dependent resource: created, updated by server-side apply, owned by the web app.
 *
 * <p>The port names its protocol although {@code TCP} is the default: {@code ports} is a list keyed
 * by port and protocol, and kube-apiserver 1.20 refuses to apply an element without a key field
 * ({@code associative list with keys has an element that omits key field "protocol"}).
 *
 * <p>The one change to JOSDK's defaults: it creates this Service by a plain apply. By default JOSDK
 * sends {@code metadata.resourceVersion: "1"} in the apply that creates a dependent, so that the
 * apply fails if the object already exists; kube-apiserver 1.20 answers such an apply for a Service
 * with {@code 500 resourceVersion should not be set on objects to be created} (its Service storage
 * creates through a path that refuses a resourceVersion), while it accepts it for ConfigMaps and
 * Deployments.
 *
 * @since 0.1.0
 */
@KubernetesDependent(createResourceOnlyIfNotExistingWithSSA = false)
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
