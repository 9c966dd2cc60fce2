#!/bin/sh
# The eks-gitops command, as the root scripts (`pnpm validate`...) and the package's bin run it: Node with the
# launcher (eks-gitops.js), NODE_EXTRA_CA_CERTS moved aside to EKS_GITOPS_EXTRA_CA_CERTS.
#
# Node 20 reads the file NODE_EXTRA_CA_CERTS names, and its own root certificates with it, before the first line of
# JavaScript: ~37 ms of every run on the machine measured, though few runs make a TLS connection. The launcher puts
# the variable back and trusts the file's certificates on the first TLS connection, as Node would have
# (bin/extra-ca.js). With --use-openssl-ca in NODE_OPTIONS Node trusts the system's store instead of its own, which
# extra-ca.js does not reproduce: the variable is then left to Node.
# only this script sets EKS_GITOPS_EXTRA_CA_CERTS: one inherited or set by hand is dropped
unset EKS_GITOPS_EXTRA_CA_CERTS
case " ${NODE_OPTIONS-} " in
*--use-openssl-ca*) ;;
*)
  if [ -n "${NODE_EXTRA_CA_CERTS-}" ]; then
    EKS_GITOPS_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS
    export EKS_GITOPS_EXTRA_CA_CERTS
    unset NODE_EXTRA_CA_CERTS
  fi
  ;;
esac
# this file's folder, through any symbolic links to it (a global install links the bin)
self=$0
while [ -L "$self" ]; do
  link=$(readlink "$self")
  case $link in
  /*) self=$link ;;
  *)
    case $self in
    */*) self=${self%/*}/$link ;;
    *) self=./$link ;;
    esac
    ;;
  esac
done
case $self in
*/*) here=${self%/*} ;;
*) here=. ;;
esac
exec node "$here/eks-gitops.js" "$@"
