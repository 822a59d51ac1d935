package dev.ctk.josdk;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.List;

/**
 * A reconciler of widgets that does what the test's script says; it also watches ConfigMaps owned by
 * a widget, so that the controller has two event sources.
 */
@ControllerConfiguration(name = "widgets")
final class WidgetReconciler implements Reconciler<Widget> {

  private final Script<UpdateControl<Widget>> script;

  WidgetReconciler(Script<UpdateControl<Widget>> script) {
    this.script = script;
  }

  @Override
  public UpdateControl<Widget> reconcile(Widget widget, Context<Widget> context) throws Exception {
    return script.run(widget, context);
  }

  @Override
  public List<EventSource<?, Widget>> prepareEventSources(EventSourceContext<Widget> context) {
    return List.of(new InformerEventSource<>(
        InformerEventSourceConfiguration.from(ConfigMap.class, Widget.class).build(), context));
  }
}
