package io.slotkeeper.security.cluster;

import org.springframework.security.authentication.AuthenticationServiceException;

/**
 * The Kubernetes API server could not review a token: unreachable, too slow, or it
 * refused slot-keeper's own service account. Answered 503; static tokens keep working.
 * The message never holds a token.
 */
public class ClusterUnavailable extends AuthenticationServiceException {

	/**
	 * Creates the exception.
	 * @param message what failed, without any token
	 */
	public ClusterUnavailable(String message) {
		super(message);
	}

}
