package dev.ctk.examples.planted;

/** Which version of a planted-bug controller to build. */
enum Variant {
  /** With the planted bug. */
  PLANTED_BUG,
  /** The correct version: what the controller should do. */
  CORRECT
}
