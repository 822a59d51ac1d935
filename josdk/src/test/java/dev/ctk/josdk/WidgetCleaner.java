package dev.ctk.josdk;

import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/** A reconciler with a cleanup, so JOSDK manages a finalizer on every widget. */
@ControllerConfiguration(name = "widget-cleaner")
final class WidgetCleaner implements Reconciler<Widget>, Cleaner<Widget> {

  private final Script<UpdateControl<Widget>> reconcile;
  private final Script<DeleteControl> cleanup;

  WidgetCleaner(Script<UpdateControl<Widget>> reconcile, Script<DeleteControl> cleanup) {
    this.reconcile = reconcile;
    this.cleanup = cleanup;
  }

  @Override
  public UpdateControl<Widget> reconcile(Widget widget, Context<Widget> context) throws Exception {
    return reconcile.run(widget, context);
  }

  @Override
  public DeleteControl cleanup(Widget widget, Context<Widget> context) throws Exception {
    return cleanup.run(widget, context);
  }
}
