/**
 * Example: a controller written with the official Kubernetes Java client ({@code
 * client-java-extended} only) that stamps each ConfigMap labelled {@code
 * checksum.examples.ctk.dev/enabled=true} with the SHA-256 of its data, and requeues on 409 Conflict.
 * Its tests run it unchanged against ctk's fake and a real kube-apiserver, observed by ctk-client-java's
 * {@code ClientJavaProbe}.
 *
 * <p>Limits: it watches one namespace; it does not remove the annotation from a ConfigMap that loses
 * the label; a replace that fails with anything but 404 or 409 throws, which client-java's {@code
 * DefaultController} retries with backoff. Its production code offers one seam for tests ({@code
 * create(.., workQueue, decorator)}): client-java's {@code DefaultController} keeps its work queue
 * and reconciler in final fields, so a probe cannot be attached afterwards. client-java's {@code
 * DefaultController} needs {@code io.prometheus:simpleclient} at run time.
 */
package dev.ctk.examples.clientjava;
