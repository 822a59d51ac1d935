/**
 * Example 1: a Service for every Deployment labelled {@code app=nginx}.
 *
 * <p>Limits: the Service carries a controller ownerReference, so a cluster's garbage collector deletes it with
 * its Deployment; the controller also deletes it itself (for clusters or tests without garbage collection, and
 * when the Deployment merely loses its label). It manages only the Service's selector and ports and leaves every
 * other field to the API server and to people.
 */
package dev.ctk.examples.nginx;
