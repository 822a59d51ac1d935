/**
 * Example: a controller written by hand on plain fabric8 (an informer, its own {@code BlockingQueue}
 * of keys, one worker thread; no ctk, no framework), which turns registry credentials Secrets into
 * {@code kubernetes.io/dockerconfigjson} Secrets. Its tests observe it with ctk's {@code
 * ControllerProbe}, attached to its queue and its reconcile through one constructor.
 *
 * <p>Limits, as in many hand-written controllers: the queue does not merge duplicate keys, so a burst
 * of events for one Secret means as many reconciles; a failed reconcile is logged and not retried
 * until the Secret changes again or the informer resyncs ({@link
 * dev.ctk.examples.handwritten.RegistryCredentialsController#RESYNC_PERIOD}); there is no rate
 * limiting and no second worker. It watches one namespace and only the credentials Secrets: a
 * dockerconfig Secret edited or deleted by hand is put right only at the next event of its source.
 * It recognises its own dockerconfig Secret by the owner's kind and name, not by its uid (a source
 * deleted and re-created while the controller was down takes the old one over).
 */
package dev.ctk.examples.handwritten;
