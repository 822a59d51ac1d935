package dev.ctk.controller;

/**
 * Observes a controller's reconciles. Called on the worker thread, around the reconciler, while the
 * key is still in flight; keep it short. Anything a listener throws, even an {@link Error} such as a
 * failed assertion, is logged and otherwise ignored: the worker goes on. Only a
 * {@link VirtualMachineError} ends the worker thread.
 *
 * <pre>{@code
 * Controller.builder("web")
 *     .addReconcileListener(new ReconcileListener() {
 *       public void onReconcileEnd(ReconcileRecord r) {
 *         System.out.println(r.summary());
 *       }
 *     })
 *     ...
 * }</pre>
 *
 * @since 0.1.0
 */
public interface ReconcileListener {

  /**
   * A worker is about to reconcile {@code key}.
   *
   * @param key the key
   * @param worker the worker thread's name
   */
  default void onReconcileStart(ObjectKey key, String worker) {}

  /**
   * A reconcile ended and was recorded; its retry (if any) is already scheduled, and the key is
   * marked done only after every listener returned. So once a key is no longer in flight, its record
   * is in the log and every listener was told.
   *
   * @param record the record, as it appears in the reconcile log
   */
  default void onReconcileEnd(ReconcileRecord record) {}
}
