/**
 * An operator built with Java Operator SDK 5 and its defaults: a {@link
 * dev.ctk.examples.webapp.WebApp} custom resource (group {@code examples.ctk.dev}, version {@code v1})
 * that the {@link dev.ctk.examples.webapp.WebAppReconciler} turns into a Deployment, a Service and a
 * ConfigMap (JOSDK dependent resources, applied by server-side apply, owned by the web app), a
 * status, and an entry in a shared {@link dev.ctk.examples.webapp.WebAppDirectory} that its
 * finalizer removes. The CRD is generated from these classes at build time by fabric8's
 * crd-generator-maven-plugin, into {@code META-INF/fabric8/webapps.examples.ctk.dev-v1.yml}.
 *
 * <p>Every dependent uses JOSDK's default settings. (Until 2026-11 the Service was created by a plain
 * apply, because kube-apiserver 1.20 answered JOSDK's create-only apply of a Service with 500; the
 * real servers ctk is tested against are now 1.32 and 1.37, which accept it.)
 *
 * <p>Its tests ({@code WebAppOperatorTest}) run the unmodified operator against ctk's fake API server
 * and a real kube-apiserver with one body, and assert on it through ctk-josdk's {@code OperatorProbe}.
 *
 * <p><b>What it does not do.</b> It is an example, not a product:
 * <ul>
 *   <li>No readiness gating: the status copies the Deployment's ready pods (0 where no
 *       controller-manager runs pods, as on a bare kube-apiserver) and never waits for them.
 *   <li>No validation: the generated CRD gives types only ({@code spec.image} is not marked
 *       required; fabric8's generator-annotations are not published for 7.8). A web app without an
 *       image fails when its Deployment is applied (422) and JOSDK retries; a wrong image is
 *       applied as given.
 *   <li>Children go only through owner references: on a server without a garbage collector they
 *       stay after their web app is deleted. The directory entry does go, through the finalizer.
 *   <li>No RBAC manifests, no Deployment of the operator itself.
 * </ul>
 *
 * @since 0.1.0
 */
package dev.ctk.examples.webapp;
