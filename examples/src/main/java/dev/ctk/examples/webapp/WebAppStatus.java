package dev.ctk.examples.webapp;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * What the operator last did and learned about a {@link WebApp}.
 *
 * @since 0.1.0
 */
public class WebAppStatus {

  @JsonPropertyDescription("The metadata.generation of the spec the operator last reconciled.")
  private Long observedGeneration;

  @JsonPropertyDescription("Where the app answers inside the cluster: its Service's cluster IP.")
  private String url;

  @JsonPropertyDescription("Ready pods, as the Deployment reported them (0 where no "
      + "controller-manager runs pods).")
  private Integer readyReplicas;

  /**
   * The generation last reconciled.
   *
   * @return the generation, or {@code null} before the first reconcile
   */
  public Long getObservedGeneration() {
    return observedGeneration;
  }

  /**
   * Sets the generation last reconciled.
   *
   * @param observedGeneration the generation
   */
  public void setObservedGeneration(Long observedGeneration) {
    this.observedGeneration = observedGeneration;
  }

  /**
   * Where the app answers.
   *
   * @return {@code http://<cluster IP>:80}, or {@code null} before the Service has one
   */
  public String getUrl() {
    return url;
  }

  /**
   * Sets where the app answers.
   *
   * @param url the URL
   */
  public void setUrl(String url) {
    this.url = url;
  }

  /**
   * Ready pods.
   *
   * @return the count the Deployment reported
   */
  public Integer getReadyReplicas() {
    return readyReplicas;
  }

  /**
   * Sets the ready pods.
   *
   * @param readyReplicas the count
   */
  public void setReadyReplicas(Integer readyReplicas) {
    this.readyReplicas = readyReplicas;
  }
}
