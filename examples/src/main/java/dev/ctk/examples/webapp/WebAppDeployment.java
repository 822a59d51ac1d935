package dev.ctk.examples.webapp;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;

/**
 * The pods of a web app: a Deployment of the same name running the app's image on port 80, with the
 * page of {@link WebAppConfigMap} mounted at {@code /usr/share/nginx/html}. A JOSDK dependent
 * resource: created, updated by server-side apply, owned by the web app. The container port names
 * its protocol for the reason {@link WebAppService} gives.
 *
 * @since 0.1.0
 */
public class WebAppDeployment extends CRUDKubernetesDependentResource<Deployment, WebApp> {

  /** Created by JOSDK for {@link WebAppReconciler}'s workflow. */
  public WebAppDeployment() {
    super(Deployment.class);
  }

  @Override
  protected Deployment desired(WebApp webApp, Context<WebApp> context) {
    Integer replicas = webApp.getSpec().getReplicas();
    return new DeploymentBuilder()
        .withNewMetadata()
          .withName(webApp.getMetadata().getName())
          .withNamespace(webApp.getMetadata().getNamespace())
          .withLabels(Labels.of(webApp))
        .endMetadata()
        .withNewSpec()
          .withReplicas(replicas == null ? 1 : replicas)
          .withNewSelector().withMatchLabels(Labels.selector(webApp)).endSelector()
          .withNewTemplate()
            .withNewMetadata().withLabels(Labels.of(webApp)).endMetadata()
            .withNewSpec()
              .addNewContainer()
                .withName("web")
                .withImage(webApp.getSpec().getImage())
                .addNewPort().withName("http").withProtocol("TCP").withContainerPort(80).endPort()
                .addNewVolumeMount()
                  .withName("content").withMountPath("/usr/share/nginx/html").withReadOnly(true)
                .endVolumeMount()
              .endContainer()
              .addNewVolume()
                .withName("content")
                .withNewConfigMap().withName(WebAppConfigMap.nameOf(webApp)).endConfigMap()
              .endVolume()
            .endSpec()
          .endTemplate()
        .endSpec()
        .build();
  }
}
