/**
 * The standalone launcher, {@link dev.ctk.fake.launcher.FakeApiServerMain}, packaged by the build as
 * {@code fake-client/target/ctk-fake-apiserver.jar}: the fake API server for kubectl and non-Java controllers.
 *
 * <p>Limits: plain HTTP on one interface, no TLS and no authentication (bind to 127.0.0.1 unless you know what you
 * are doing); state lives in memory and is lost on exit; everything the fake itself does not do (see
 * {@link dev.ctk.fake}) applies, and kubectl generators that send protobuf ({@code kubectl create configmap ...})
 * are refused with 415 (use {@code --dry-run=client -o yaml | kubectl apply -f -}).
 *
 * @since 0.1.0
 */
package dev.ctk.fake.launcher;
