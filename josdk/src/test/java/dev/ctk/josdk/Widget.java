package dev.ctk.josdk;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** The test kind (CRD in {@code crds/widgets.josdk.ctk.dev.yaml}). */
@Group("josdk.ctk.dev")
@Version("v1")
public class Widget extends CustomResource<Widget.Spec, Widget.Status> implements Namespaced {

  /** A widget named {@code name} with a message, in the client's namespace. */
  static Widget named(String name, String message) {
    Widget widget = new Widget();
    widget.getMetadata().setName(name);
    Spec spec = new Spec();
    spec.setMessage(message);
    widget.setSpec(spec);
    return widget;
  }

  /** The desired state. */
  public static class Spec {
    private String message;

    public String getMessage() {
      return message;
    }

    public void setMessage(String message) {
      this.message = message;
    }
  }

  /** What a reconciler wrote. */
  public static class Status {
    private String seen;
    private Long observedGeneration;

    public String getSeen() {
      return seen;
    }

    public void setSeen(String seen) {
      this.seen = seen;
    }

    public Long getObservedGeneration() {
      return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
      this.observedGeneration = observedGeneration;
    }
  }
}
