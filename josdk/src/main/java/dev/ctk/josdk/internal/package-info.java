/**
 * How {@link dev.ctk.josdk.OperatorProbe} turns Java Operator SDK's metrics calls and health
 * indicators into a {@link dev.ctk.controller.ControllerProbe}. Not API: anything here may change
 * in any release; public signatures of ctk never mention these types.
 */
package dev.ctk.josdk.internal;
