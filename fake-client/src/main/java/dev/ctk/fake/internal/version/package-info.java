/**
 * The Kubernetes minor version the fake emulates ({@link dev.ctk.fake.internal.version.KubeMinor}): what
 * {@code /version} reports and which of the behaviours that changed between the supported minors apply.
 *
 * <p>Limits: only minors 1.32 to 1.37, and only the differences listed in {@code docs/kubernetes-versions.md}
 * (each backed by a contract scenario where a real server of that minor is built). Everything else behaves as 1.32
 * whatever the choice, API versions removed or added between minors included. Patch releases are not told apart:
 * each minor behaves as its newest patch.
 */
package dev.ctk.fake.internal.version;
