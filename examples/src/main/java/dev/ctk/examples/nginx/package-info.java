/**
 * Example 1: a Service for every Deployment labelled {@code app=nginx}.
 *
 * <p>Limits: the controller deletes the Service itself when its Deployment goes (it does not rely on
 * garbage collection, which ctk's fake does not perform yet); it manages only the Service's selector and
 * ports and leaves every other field to the API server and to people.
 */
package dev.ctk.examples.nginx;
