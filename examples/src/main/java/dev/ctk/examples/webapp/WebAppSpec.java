package dev.ctk.examples.webapp;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * The desired state of a {@link WebApp}.
 *
 * @since 0.1.0
 */
public class WebAppSpec {

  @JsonPropertyDescription("The container image that serves /usr/share/nginx/html on port 80; "
      + "required.")
  private String image;

  @JsonPropertyDescription("How many pods serve the app; 1 when unset.")
  private Integer replicas;

  @JsonPropertyDescription("The text of the page the app serves.")
  private String greeting;

  /**
   * The container image; required (a Deployment without an image is refused).
   *
   * @return the image, e.g. {@code nginx:1.27}
   */
  public String getImage() {
    return image;
  }

  /**
   * Sets the container image.
   *
   * @param image the image
   */
  public void setImage(String image) {
    this.image = image;
  }

  /**
   * How many pods.
   *
   * @return the count, or {@code null} for 1
   */
  public Integer getReplicas() {
    return replicas;
  }

  /**
   * Sets how many pods.
   *
   * @param replicas the count
   */
  public void setReplicas(Integer replicas) {
    this.replicas = replicas;
  }

  /**
   * The page's text.
   *
   * @return the greeting, possibly {@code null}
   */
  public String getGreeting() {
    return greeting;
  }

  /**
   * Sets the page's text.
   *
   * @param greeting the greeting
   */
  public void setGreeting(String greeting) {
    this.greeting = greeting;
  }
}
