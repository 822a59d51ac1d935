/**
 * kube's {@code Status} errors: {@link dev.ctk.fake.internal.status.ApiError} and its factories, worded as
 * kube-apiserver words them.
 *
 * <p>Limits: only the reasons the fake produces today (NotFound, AlreadyExists, Conflict, Invalid, BadRequest,
 * MethodNotAllowed, Expired, UnsupportedMediaType, InternalError); no {@code retryAfterSeconds}.
 */
package dev.ctk.fake.internal.status;
